"""
expect: none
dynamic: dismiss
source: https://github.com/cindyxinyiwang/deep-latent-sequence-model/issues/17

Text style transfer (unsupervised, back-translation). When the Gumbel-softmax option is
off, the trainer produces the transferred sentences with `with torch.no_grad():` and
then rebuilds the sort index coming back from NumPy with `torch.tensor(index.copy(),
dtype=torch.long, requires_grad=False)`. Both look like cut paths, but they are the
standard back-translation recipe: the transferred sentence is discrete pseudo-input
(argmax tokens, no gradient could flow through them anyway) and the index only reorders
the batch. The loss that trains the model is the reconstruction of the original
sentence from its transfer, computed with gradient through encoder, style embedding and
decoder. The asserts show that the pseudo-input carries no grad by design, that all
trainable parts get gradient and that the back-translation loss falls.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

BOS, PAD = 1, 0


class StyleSeq2Seq(nn.Module):
    def __init__(self, vocab, d=32, n_styles=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.style_emb = nn.Embedding(n_styles, d)
        self.encoder = nn.GRU(d, d, batch_first=True)
        self.decoder = nn.GRU(d, d, batch_first=True)
        self.out = nn.Linear(d, vocab)

    def encode(self, x):
        _, h = self.encoder(self.emb(x))
        return h

    def decode_logits(self, h, y_style, y_in):
        h = h + self.style_emb(y_style).unsqueeze(0)
        out, _ = self.decoder(self.emb(y_in), h)
        return self.out(out)

    def get_translations(self, x, y_style, max_len):
        """Greedy decoding of x into style y_style (discrete tokens)."""
        h = self.encode(x) + self.style_emb(y_style).unsqueeze(0)
        tok = torch.full((x.size(0), 1), BOS, dtype=torch.long)
        outs = []
        for _ in range(max_len):
            o, h = self.decoder(self.emb(tok), h)
            tok = self.out(o).argmax(-1)
            outs.append(tok)
        trans = torch.cat(outs, 1)
        lengths = (trans != PAD).sum(1).cpu().numpy()
        index = np.argsort(-lengths, kind="stable")        # sort batch by length, as for packing
        return trans, lengths, index

    def reconstruction_loss(self, x_src, src_style, x_tgt):
        h = self.encode(x_src)
        y_in = torch.cat([torch.full((x_tgt.size(0), 1), BOS, dtype=torch.long), x_tgt[:, :-1]], 1)
        logits = self.decode_logits(h, src_style, y_in)
        return F.cross_entropy(logits.reshape(-1, logits.size(-1)), x_tgt.reshape(-1))



torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, LEN, B = 14, 7, 32


def sample_batch():
    # style 0 sentences use tokens 2..7, style 1 use tokens 8..13 (a crude "sentiment" split)
    style = torch.randint(0, 2, (B,))
    base = torch.randint(0, 6, (B, LEN))
    x = base + 2 + 6 * style.unsqueeze(1)
    return x, style


model = StyleSeq2Seq(VOCAB)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
losses = []
for step in range(150):
    x_train, y_style = sample_batch()
    y_sampled = 1 - y_style
    with torch.no_grad():
        x_trans, x_trans_len, index = model.get_translations(x_train, y_sampled, LEN)
    index = torch.tensor(index.copy(), dtype=torch.long, requires_grad=False)
    x_trans, x_train, y_style = x_trans[index], x_train[index], y_style[index]
    assert not x_trans.requires_grad
    loss = model.reconstruction_loss(x_trans, y_style, x_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())

for name, p in model.named_parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0, name
first, last = sum(losses[:10]) / 10, sum(losses[-10:]) / 10
assert last < 0.8 * first, (first, last)
print("back-translation reconstruction loss %.3f -> %.3f" % (first, last))
