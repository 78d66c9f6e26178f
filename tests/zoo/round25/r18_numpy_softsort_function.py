"""
expect: none
dynamic: dismiss
source: https://github.com/google-research/fast-soft-sort/issues/20

The issue: the PyTorch wrapper of fast-soft-sort calls `.numpy()` on its input and
`torch.from_numpy` on the result, forward and backward. That round trip is fine
because it lives inside a torch.autograd.Function whose backward supplies the
vector-Jacobian product itself. Here a soft-rank operator is written that way (a
numpy forward plus an explicit numpy VJP) and used in a ranking loss. The asserts
check the custom backward matches a pure-torch version of the same operator and
that a scoring model trains through it.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def _soft_rank_np(x, tau):
    diff = (x[:, :, None] - x[:, None, :]) / tau
    p = 1.0 / (1.0 + np.exp(-diff))
    return p.sum(-1) + 0.5, p


class SoftRank(torch.autograd.Function):
    @staticmethod
    def forward(ctx, scores, tau=0.5):
        x = scores.detach().cpu().numpy().astype(np.float64)
        r, p = _soft_rank_np(x, tau)
        ctx.p, ctx.tau = p, tau
        return torch.from_numpy(r).to(scores.dtype)

    @staticmethod
    def backward(ctx, grad_out):
        g = grad_out.detach().cpu().numpy().astype(np.float64)
        dp = ctx.p * (1.0 - ctx.p) / ctx.tau
        grad = (g[:, :, None] * dp).sum(-1) - (g[:, :, None] * dp).sum(1)
        return torch.from_numpy(grad).to(grad_out.dtype), None


def soft_rank_torch(x, tau=0.5):
    return torch.sigmoid((x[:, :, None] - x[:, None, :]) / tau).sum(-1) + 0.5


scorer = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
items = torch.randn(4, 7, 5)
target_rank = torch.argsort(torch.argsort(items[..., 0], dim=1), dim=1).float() + 1.0

scores = scorer(items).squeeze(-1)
x1 = scores.detach().double().requires_grad_(True)
x2 = scores.detach().double().requires_grad_(True)
w = torch.randn(4, 7, dtype=torch.double)
(SoftRank.apply(x1) * w).sum().backward()
(soft_rank_torch(x2) * w).sum().backward()
assert torch.allclose(x1.grad, x2.grad, atol=1e-8)

opt = torch.optim.Adam(scorer.parameters(), lr=0.02)
losses = []
for _ in range(40):
    ranks = SoftRank.apply(scorer(items).squeeze(-1))
    loss = ((ranks - target_rank) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
assert scorer[0].weight.grad.abs().sum() > 0
assert losses[-1] < 0.5 * losses[0], (losses[0], losses[-1])
print("ok")
