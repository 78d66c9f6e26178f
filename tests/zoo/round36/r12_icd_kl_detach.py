"""
expect: GL001 41
dynamic: confirm
source: https://github.com/yilundu/improved_contrastive_divergence/issues/1

Improved contrastive divergence trains an energy model with the usual CD term plus a KL
term that backpropagates through the last Langevin step (the thread explains that
im_neg_kl differs from im_neg only in carrying that gradient). In this sampler helper the
last step's score is detached before it is applied, so x_kl depends on no parameter and
the KL term, scored by a frozen copy of the model, trains nothing. The asserts show the
KL term gives the energy net no gradient (the total gradient equals CD alone for any KL
weight), while the same helper without the detach gives a non-zero KL gradient.
"""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class EnergyNet(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(d, 32), nn.SiLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.f(x).squeeze(-1)


class LangevinSampler:
    def __init__(self, steps=10, step_size=0.05, noise=0.01, detach_score=True):
        self.steps, self.step_size, self.noise = steps, step_size, noise
        self.detach_score = detach_score

    def _last_step(self, model, x):
        e = model(x).sum()
        score = torch.autograd.grad(e, x, create_graph=True)[0]
        if self.detach_score:
            score = score.detach()
        return x - self.step_size * score

    def sample(self, model, x0):
        x = x0.detach().requires_grad_(True)
        for _ in range(self.steps - 1):
            e = model(x).sum()
            g = torch.autograd.grad(e, x)[0]
            x = (x - self.step_size * g + self.noise * torch.randn_like(x)).detach().requires_grad_(True)
        x_kl = self._last_step(model, x)
        return x_kl.detach(), x_kl


def icd_loss(model, x_pos, sampler, kl_weight):
    x_neg, x_kl = sampler.sample(model, torch.randn_like(x_pos))
    cd = model(x_pos).mean() - model(x_neg).mean()
    frozen = copy.deepcopy(model).requires_grad_(False)
    kl = frozen(x_kl).mean()
    return cd + kl_weight * kl, kl


def grads(model, loss):
    model.zero_grad()
    loss.backward()
    return torch.cat([p.grad.flatten().clone() for p in model.parameters()])


model = EnergyNet()
x_pos = torch.randn(64, 8) * 0.5 + 1.0
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for _ in range(3):
    loss, _ = icd_loss(model, x_pos, LangevinSampler(), kl_weight=1.0)
    opt.zero_grad()
    loss.backward()
    opt.step()

# KL term alone: no gradient reaches the energy net through the buggy sampler
torch.manual_seed(1)
_, kl = icd_loss(model, x_pos, LangevinSampler(), kl_weight=1.0)
assert not kl.requires_grad or all(
    g is None for g in torch.autograd.grad(kl, list(model.parameters()), allow_unused=True))

# total gradient does not depend on the KL weight
torch.manual_seed(2)
g0 = grads(model, icd_loss(model, x_pos, LangevinSampler(), kl_weight=0.0)[0])
torch.manual_seed(2)
g5 = grads(model, icd_loss(model, x_pos, LangevinSampler(), kl_weight=5.0)[0])
assert torch.allclose(g0, g5), (g0 - g5).abs().max()

# fixed sampler (score kept in the graph): the KL term now trains the energy net
torch.manual_seed(1)
_, kl_ok = icd_loss(model, x_pos, LangevinSampler(detach_score=False), kl_weight=1.0)
gk = torch.autograd.grad(kl_ok, list(model.parameters()), allow_unused=True)
total = sum(g.abs().sum().item() for g in gk if g is not None)
assert total > 0.0, total
print("ICD KL term gives no gradient with detached score; fixed KL grad sum =", round(total, 5))
