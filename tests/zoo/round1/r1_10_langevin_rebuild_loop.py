"""expect: none
dynamic: dismiss
source: https://github.com/ElianMalessy/image-generator/blob/main/ebm.py

Energy-based model training with short-run Langevin sampling. Inside the sampler the sample is rebuilt from itself every iteration (`x = x - step * g + noise`) after `torch.autograd.grad` each iteration; each iteration starts from `x.detach().requires_grad_(True)`, so no graph is carried across iterations and nothing is retained. The outer loop then trains the energy network with backward every step on detached negatives. This is the standard recipe and trains.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
ebm = nn.Sequential(nn.Linear(2, 32), nn.SiLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(ebm.parameters(), lr=1e-3)


def langevin(x, steps=10, step_size=0.05):
    for _ in range(steps):
        x = x.detach().requires_grad_(True)
        energy = ebm(x).sum()
        g, = torch.autograd.grad(energy, x)
        x = x - step_size * g + 0.01 * torch.randn_like(x)
    return x.detach()


x_neg = torch.randn(64, 2)
for it in range(10):
    pos = torch.randn(64, 2) * 0.3 + 1.0
    x_neg = langevin(x_neg)
    loss = ebm(pos).mean() - ebm(x_neg).mean() + 0.1 * (ebm(pos) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

print("ebm grad norm", ebm[0].weight.grad.norm().item())
assert ebm[0].weight.grad.norm() > 0
