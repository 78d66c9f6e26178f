"""
expect: GL005 44
dynamic: confirm
source: https://github.com/DevSinghSachan/Attention_is_All_You_Need/issues/3

A Transformer NMT implementation (Japanese/German -> English) builds the
position-wise feed-forward sublayer as W_1 -> ReLU(inplace=True) ->
Dropout(inplace=True) -> W_2 (net.py, FeedForwardLayer, at commit
dc6b8c2f48afe41399a744203b06ed2b4e2f7f65). Users who ran train.py reported
"one of the variables needed for gradient computation has been modified by an
inplace operation" at loss.backward(). The ReLU keeps its own output for the
backward pass (its derivative is read from the result); the in-place dropout
then multiplies that very tensor by the dropout mask, bumping its version, so
the ReLU node finds its saved result changed. The program trains a tiny
copy-and-reverse "translation" model with the same sublayer: in train mode the
in-place variant raises the inplace RuntimeError (caught and asserted), in eval
mode it runs (dropout is a no-op there, which is why inference looked fine), and
the fixed sublayer (out-of-place dropout) trains and lowers the loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, D_MODEL, D_HIDDEN, SRC_LEN = 12, 16, 32, 6


def make_batch(n=32):
    src = torch.randint(2, VOCAB, (n, SRC_LEN))
    tgt = torch.flip(src, dims=[1])  # "translation" = reversed sequence
    return src, tgt


class FeedForwardSublayer(nn.Module):
    """Position-wise FFN of a Transformer block."""

    def __init__(self, d_model, d_hidden, relu_dropout=0.1, inplace_dropout=True):
        super().__init__()
        self.w_1 = nn.Linear(d_model, d_hidden)
        self.act = nn.ReLU(inplace=True)
        if inplace_dropout:
            self.dropout = nn.Dropout(relu_dropout, inplace=True)
        else:
            self.dropout = nn.Dropout(relu_dropout)
        self.w_2 = nn.Linear(d_hidden, d_model)

    def forward(self, e):
        h = self.w_1(e)
        h = self.dropout(self.act(h))
        return self.w_2(h)


class TinyTranslator(nn.Module):
    def __init__(self, inplace_dropout):
        super().__init__()
        self.src_embed = nn.Embedding(VOCAB, D_MODEL)
        self.pos = nn.Parameter(torch.randn(SRC_LEN, D_MODEL) * 0.1)
        self.mix = nn.Linear(SRC_LEN, SRC_LEN, bias=False)  # crude position mixing
        self.norm = nn.LayerNorm(D_MODEL)
        self.ffn = FeedForwardSublayer(D_MODEL, D_HIDDEN, inplace_dropout=inplace_dropout)
        self.out = nn.Linear(D_MODEL, VOCAB)

    def forward(self, src):
        x = self.src_embed(src) + self.pos
        x = self.mix(x.transpose(1, 2)).transpose(1, 2)
        x = x + self.ffn(self.norm(x))
        return self.out(x)


def train(model, steps=150):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(steps):
        src, tgt = make_batch()
        logits = model(src)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), tgt.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


# --- buggy sublayer: in-place dropout on the ReLU output ---
buggy = TinyTranslator(inplace_dropout=True)
buggy.eval()
with torch.no_grad():
    buggy(make_batch(4)[0])  # inference works: dropout does nothing in eval mode
buggy.train()
raised = False
try:
    train(buggy, steps=1)
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised, "in-place dropout after in-place ReLU should break backward"

# --- fixed sublayer: dropout returns a new tensor ---
torch.manual_seed(0)
fixed = TinyTranslator(inplace_dropout=False)
w2_before = fixed.ffn.w_2.weight.detach().clone()
losses = train(fixed)
assert fixed.ffn.w_2.weight.grad is not None
assert not torch.allclose(w2_before, fixed.ffn.w_2.weight)
assert sum(losses[-10:]) / 10 < 0.7 * sum(losses[:10]) / 10
print("in-place FFN raised the inplace error; fixed FFN loss %.3f -> %.3f"
      % (sum(losses[:10]) / 10, sum(losses[-10:]) / 10))
