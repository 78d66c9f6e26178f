"""expect: GL001 33
dynamic: confirm
source: https://github.com/d2l-ai/d2l-zh/blob/e6b18ccea71451a55fcd861d7b96fddf2587b09a/d2l/torch.py#L2250

A small BERT encoder for masked-language-model pretraining adds token, segment and learnable
positional embeddings; the positional table is an nn.Parameter precisely so that it is learned. The
forward adds it through .data (as the d2l BERTEncoder does), which hands autograd a view of the raw
storage with no history, so the positional table never receives a gradient even though the optimizer
holds it, and the model trains with frozen random position vectors. The asserts run MLM training steps
and show pos_embedding.grad is None and the table never moves while the token embeddings train, and
that adding the parameter itself gives it a gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BERTEncoder(nn.Module):
    def __init__(self, vocab_size=100, num_hiddens=32, num_heads=4, max_len=64):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab_size, num_hiddens)
        self.segment_embedding = nn.Embedding(2, num_hiddens)
        self.blk = nn.TransformerEncoderLayer(num_hiddens, num_heads, dim_feedforward=64,
                                              dropout=0.0, batch_first=True)
        # learnable positional embedding, long enough for every sequence
        self.pos_embedding = nn.Parameter(torch.randn(1, max_len, num_hiddens))

    def add_positions(self, X):
        return X + self.pos_embedding[:, :X.shape[1], :]

    def forward(self, tokens, segments):
        X = self.token_embedding(tokens) + self.segment_embedding(segments)
        X = X + self.pos_embedding.data[:, :X.shape[1], :]
        return self.blk(X)


class FixedBERTEncoder(BERTEncoder):
    def forward(self, tokens, segments):
        X = self.token_embedding(tokens) + self.segment_embedding(segments)
        return self.blk(self.add_positions(X))


class MaskLM(nn.Module):
    def __init__(self, encoder, vocab_size=100, num_hiddens=32):
        super().__init__()
        self.encoder = encoder
        self.mlp = nn.Sequential(nn.Linear(num_hiddens, num_hiddens), nn.ReLU(), nn.Linear(num_hiddens, vocab_size))

    def forward(self, tokens, segments, pred_positions):
        enc = self.encoder(tokens, segments)
        picked = enc[torch.arange(enc.shape[0])[:, None], pred_positions]
        return self.mlp(picked)


def mlm_batch(b=8, L=16, n_pred=3):
    tokens = torch.randint(4, 100, (b, L))
    segments = (torch.arange(L) >= L // 2).long().expand(b, L)
    pred_positions = torch.stack([torch.randperm(L)[:n_pred] for _ in range(b)])
    labels = tokens.gather(1, pred_positions)
    masked = tokens.scatter(1, pred_positions, 1)           # token id 1 = [MASK]
    return masked, segments, pred_positions, labels


def pretrain(model, steps=5):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    pos0 = model.encoder.pos_embedding.detach().clone()
    for _ in range(steps):
        tokens, segments, pred_positions, labels = mlm_batch()
        logits = model(tokens, segments, pred_positions)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    return pos0


torch.manual_seed(0)
torch.set_num_threads(1)

model = MaskLM(BERTEncoder())
pos0 = pretrain(model)
assert model.encoder.pos_embedding.grad is None
assert torch.equal(pos0, model.encoder.pos_embedding.detach())
assert model.encoder.token_embedding.weight.grad.abs().sum() > 0

torch.manual_seed(0)
fixed = MaskLM(FixedBERTEncoder())
pos0_f = pretrain(fixed)
assert fixed.encoder.pos_embedding.grad is not None
assert not torch.equal(pos0_f, fixed.encoder.pos_embedding.detach())

print("positional table has a gradient with .data:", model.encoder.pos_embedding.grad is not None,
      "| without:", fixed.encoder.pos_embedding.grad is not None)
