"""
expect: GL001 26
dynamic: confirm
source: kinds check 23, kind 5 (written for this check)

A long-only portfolio allocator learns a softmax temperature (log_inv_temp, an nn.Parameter in the optimizer and
meant to train) next to its asset scorer. The forward reads it through `.detach()` before clamping, so the
negative-Sharpe loss, its only path, never reaches it. The asserts show its grad stays None and its value never
moves during training while the scorer trains, and that the same allocation without the cut does give it a gradient.
"""
import torch
import torch.nn as nn


class SoftAllocator(nn.Module):
    def __init__(self, n_feats, hidden=32):
        super().__init__()
        self.scorer = nn.Sequential(nn.Linear(n_feats, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        self.log_inv_temp = nn.Parameter(torch.zeros(()))

    def weights(self, feats, inv_temp):
        scores = self.scorer(feats).squeeze(-1)        # (days, assets)
        return torch.softmax(scores * inv_temp, dim=-1)

    def forward(self, feats):
        inv_temp = self.log_inv_temp.detach().clamp(-3.0, 3.0).exp()
        return self.weights(feats, inv_temp)


def neg_sharpe(weights, returns, eps=1e-6):
    port = (weights * returns).sum(-1)
    return -port.mean() / (port.std() + eps)


torch.manual_seed(14)
DAYS, ASSETS, FEATS = 120, 10, 6
feats = torch.randn(DAYS, ASSETS, FEATS)
returns = 0.01 * feats[..., 0] + 0.02 * torch.randn(DAYS, ASSETS)

model = SoftAllocator(FEATS)
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
temp_start = model.log_inv_temp.detach().clone()
scorer_start = [p.detach().clone() for p in model.scorer.parameters()]
for _ in range(30):
    loss = neg_sharpe(model(feats), returns)
    opt.zero_grad()
    loss.backward()
    opt.step()

assert model.log_inv_temp.grad is None
assert torch.equal(model.log_inv_temp.detach(), temp_start)
assert any(not torch.equal(a, b) for a, b in zip(scorer_start, model.scorer.parameters()))

# fixed variant: the same clamp without the cut reaches the temperature
opt.zero_grad()
fixed_w = model.weights(feats, model.log_inv_temp.clamp(-3.0, 3.0).exp())
neg_sharpe(fixed_w, returns).backward()
assert model.log_inv_temp.grad is not None and model.log_inv_temp.grad.abs() > 0
print("bug confirmed: learned temperature starved by .detach() in forward")
