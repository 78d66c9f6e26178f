"""expect: GL002 33
dynamic: confirm
source: https://github.com/dalinvip/pytorch_word2vec/issues/2

A CBOW word2vec in PyTorch (negative sampling) summed the context-word
vectors with NumPy: each window's input embeddings were read out with
.data.numpy(), added up with np.sum, turned into Python lists and wrapped
again in a new FloatTensor. The reporter noticed that the input ("u")
embedding table never changes. The rebuilt tensor is a fresh leaf, so the
loss has no path back to the context table; only the output ("v") table
learns. Fix: sum inside autograd, e.g. self.ctx_table(win).sum(0) and
torch.stack the rows.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ContextBagW2V(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.ctx_table = nn.Embedding(vocab_size, dim)    # "u" vectors (input side)
        self.word_table = nn.Embedding(vocab_size, dim)   # "v" vectors (output side)
        nn.init.uniform_(self.ctx_table.weight, -0.5 / dim, 0.5 / dim)
        nn.init.normal_(self.word_table.weight, std=0.1)

    def bag_of_context(self, windows):
        summed = []
        for win in windows:
            vecs = self.ctx_table(torch.as_tensor(win, dtype=torch.long))
            summed.append(np.sum(vecs.data.numpy(), axis=0).tolist())
        return torch.FloatTensor(summed)

    def forward(self, windows, centre, negatives):
        h = self.bag_of_context(windows)                       # (B, D)
        pos = (h * self.word_table(centre)).sum(-1)            # (B,)
        neg = torch.bmm(self.word_table(negatives), h.unsqueeze(-1)).squeeze(-1)
        return -(F.logsigmoid(pos).sum() + F.logsigmoid(-neg).sum())


def make_batch(rng, vocab_size, batch, window, n_neg):
    windows = [rng.integers(0, vocab_size, size=window).tolist() for _ in range(batch)]
    centre = torch.as_tensor(rng.integers(0, vocab_size, size=batch))
    negatives = torch.as_tensor(rng.integers(0, vocab_size, size=(batch, n_neg)))
    return windows, centre, negatives


def train_epoch(model, opt, rng, steps=5):
    for _ in range(steps):
        windows, centre, negatives = make_batch(rng, 50, 8, 4, 3)
        opt.zero_grad()
        objective = model(windows, centre, negatives)
        objective.backward()
        opt.step()


torch.manual_seed(0)
rng = np.random.default_rng(0)
w2v = ContextBagW2V(vocab_size=50, dim=16)
sgd = torch.optim.SGD(w2v.parameters(), lr=0.5)
ctx_before = w2v.ctx_table.weight.detach().clone()
word_before = w2v.word_table.weight.detach().clone()
train_epoch(w2v, sgd, rng)

# the input-side table never receives a gradient, the output side does
assert w2v.ctx_table.weight.grad is None
assert w2v.word_table.weight.grad is not None
assert w2v.word_table.weight.grad.abs().sum() > 0
assert torch.equal(w2v.ctx_table.weight, ctx_before)
assert not torch.equal(w2v.word_table.weight, word_before)
print("OK")
