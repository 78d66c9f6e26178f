"""
expect: GL002 30
dynamic: confirm
source: kinds check 24, kind 3 (written for this check)

The tabular regressor's `weight_penalty` returns `(1 / 2) * w.norm().pow(2).item()`, a Python
float, and the fit step adds `lam * model.weight_penalty()` to the loss, so the weight decay
changes the reported loss but never the gradient. The asserts show the loss differs with lam 0
and 0.5 while the first layer's gradient is identical; a tensor penalty changes the gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)


class TabularRegressor(nn.Module):
    def __init__(self, n_num=6, n_cat=10, d=4):
        super().__init__()
        self.cat_emb = nn.Embedding(n_cat, d)
        self.mlp = nn.Sequential(nn.Linear(n_num + d, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, num, cat):
        return self.mlp(torch.cat([num, self.cat_emb(cat)], dim=1)).squeeze(1)

    def weight_penalty(self):
        w = self.mlp[0].weight
        return (1 / 2) * w.norm().pow(2).item()


def fit_step(model, batch, lam):
    num, cat, y = batch
    model.zero_grad()
    loss = F.mse_loss(model(num, cat), y) + lam * model.weight_penalty()
    loss.backward()
    return loss.item(), model.mlp[0].weight.grad.clone()


def fit_step_tensor_penalty(model, batch, lam):
    num, cat, y = batch
    model.zero_grad()
    w = model.mlp[0].weight
    loss = F.mse_loss(model(num, cat), y) + lam * 0.5 * w.pow(2).sum()
    loss.backward()
    return loss.item(), w.grad.clone()


batch = (torch.randn(64, 6), torch.randint(0, 10, (64,)), torch.randn(64))
model = TabularRegressor()
l0, g0 = fit_step(model, batch, lam=0.0)
l1, g1 = fit_step(model, batch, lam=0.5)
assert l1 > l0 + 1e-3, (l0, l1)
assert torch.equal(g0, g1), "the .item() penalty reached the gradient"

_, t0 = fit_step_tensor_penalty(model, batch, lam=0.0)
_, t1 = fit_step_tensor_penalty(model, batch, lam=0.5)
assert not torch.allclose(t0, t1)
print("bug confirmed: the weight penalty taken through .item() has no gradient")
