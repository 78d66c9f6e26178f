"""
expect: GL002 26
dynamic: confirm
source: kinds check 29, kind 4

A sentiment regressor is trained by a generic train() that takes its
criterion as an argument. One run passes a Huber loss class that works in
NumPy and rebuilds the loss with torch.tensor(..., requires_grad=True):
that new leaf has no link to the model, so the run never trains.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class NumpyHuber:
    def __init__(self, delta=1.0):
        self.delta = delta

    def __call__(self, pred, target):
        p = pred.detach().cpu().numpy()
        t = target.detach().cpu().numpy()
        r = np.abs(p - t)
        val = np.where(r < self.delta, 0.5 * r ** 2, self.delta * (r - 0.5 * self.delta)).mean()
        return torch.tensor(val, requires_grad=True)


class BagRegressor(nn.Module):
    def __init__(self, vocab, d):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, d, mode="mean")
        self.out = nn.Linear(d, 1)

    def forward(self, tokens):
        return self.out(self.emb(tokens)).squeeze(-1)


def train(model, criterion, tokens, scores, steps=5):
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    for _ in range(steps):
        opt.zero_grad()
        loss = criterion(model(tokens), scores)
        loss.backward()
        opt.step()
    return model


torch.manual_seed(0)
tokens = torch.randint(0, 50, (8, 6))
scores = torch.rand(8) * 4 - 2

torch.manual_seed(1)
m_np = BagRegressor(50, 8)
w_np = m_np.out.weight.detach().clone()
train(m_np, NumpyHuber(), tokens, scores)

torch.manual_seed(1)
m_t = BagRegressor(50, 8)
w_t = m_t.out.weight.detach().clone()
train(m_t, F.smooth_l1_loss, tokens, scores)

assert torch.equal(w_np, w_t)
assert m_np.out.weight.grad is None and m_np.emb.weight.grad is None
assert torch.equal(m_np.out.weight.detach(), w_np), "numpy criterion should not train"
assert not torch.equal(m_t.out.weight.detach(), w_t), "torch criterion trains"
print("ok")
