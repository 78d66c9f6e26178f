"""
expect: none
dynamic: dismiss
source: kinds check 34, kind 1

A credit-default scorer has a losses(self, batch) method. Under torch.no_grad()
it turns the already computed probabilities into per-applicant hardness weights
(a fixed weighting, as in focal-style reweighting) and an accuracy for logging;
the weighted cross-entropy and the L2 term stay attached and carry the gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class DefaultScorer(nn.Module):
    def __init__(self, n_features=12):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_features, 24), nn.Tanh(), nn.Linear(24, 1))

    def forward(self, x):
        return self.body(x).squeeze(-1)

    def losses(self, batch, reweight=True):
        logits = self(batch["features"])
        y = batch["defaulted"]
        with torch.no_grad():
            p = torch.sigmoid(logits)
            hardness = (p - y).abs() + 1e-3
            weights = hardness / hardness.mean() if reweight else torch.ones_like(p)
            accuracy = ((p > 0.5).float() == y).float().mean()
        bce = (weights * F.binary_cross_entropy_with_logits(logits, y, reduction="none")).mean()
        l2 = 1e-3 * sum(w.pow(2).sum() for w in self.parameters())
        return bce, l2, accuracy


def grads(model, batch, reweight):
    model.zero_grad()
    bce, l2, acc = model.losses(batch, reweight=reweight)
    loss = bce + l2
    loss.backward()
    return loss, acc, [p.grad.clone() for p in model.parameters()]


model = DefaultScorer()
batch = {"features": torch.randn(64, 12), "defaulted": (torch.rand(64) < 0.3).float()}

loss, acc, g_weighted = grads(model, batch, reweight=True)
_, _, g_plain = grads(model, batch, reweight=False)
print(f"loss {loss.item():.4f}  accuracy {acc.item():.3f}")

assert loss.requires_grad and not acc.requires_grad
assert all(g.abs().sum() > 0 for g in g_weighted)  # every layer trains
assert any(not torch.allclose(a, b) for a, b in zip(g_weighted, g_plain))  # the fixed weights shape the gradient
