"""
expect: GL001 25
dynamic: confirm
source: kind E

A wide-and-deep click-through-rate model concatenates a wide linear branch and a deep MLP
branch before a shared output layer, but the wide branch's output is detached in the
concatenation. The asserts show the wide branch (held by the optimizer, trained by nothing
else) gets no gradient and is unchanged while the deep branch trains, and that a version
without the detach trains the wide branch too.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class WideDeepCTR(nn.Module):
    def __init__(self, n_features=20):
        super().__init__()
        self.wide = nn.Linear(n_features, 4)
        self.deep = nn.Sequential(nn.Linear(n_features, 32), nn.ReLU(), nn.Linear(32, 8))
        self.out = nn.Linear(12, 1)

    def forward(self, x):
        joined = torch.cat([self.wide(x).detach(), self.deep(x)], dim=1)
        return self.out(joined).squeeze(-1)


class WideDeepCTRFixed(WideDeepCTR):
    def forward(self, x):
        joined = torch.cat([self.wide(x), self.deep(x)], dim=1)
        return self.out(joined).squeeze(-1)


def train(cls):
    torch.manual_seed(0)
    model = cls()
    opt = torch.optim.Adagrad(model.parameters(), lr=0.1)
    x = torch.randn(64, 20)
    clicks = (torch.rand(64) > 0.8).float()
    wide_before = model.wide.weight.detach().clone()
    deep_before = model.deep[0].weight.detach().clone()
    for _ in range(3):
        opt.zero_grad()
        F.binary_cross_entropy_with_logits(model(x), clicks).backward()
        opt.step()
    return model, wide_before, deep_before


model, wide_before, deep_before = train(WideDeepCTR)
assert model.wide.weight.grad is None
assert torch.equal(model.wide.weight, wide_before)
assert not torch.equal(model.deep[0].weight, deep_before)

model, wide_before, _ = train(WideDeepCTRFixed)
assert model.wide.weight.grad is not None
assert not torch.equal(model.wide.weight, wide_before)
print("e1 ok")
