"""
expect: none
dynamic: dismiss
source: https://github.com/morris-frank/unsupervised-source-separation/blob/a87fc9840838836e837e7c4aeca220bc6389e226/thesis/langevin.py

The source-separation thesis code samples sources with Langevin dynamics under a learned prior:
inside torch.enable_grad() it makes the sample a leaf with requires_grad = True, and at every step
it zeroes the model's gradients, backpropagates the negative log-likelihood to the sample, reads
the sample's .grad, calls detach_() on the sample, forms the next sample out of place from the old
value, the gradient and fresh noise, and sets requires_grad = True again. Every piece of that looks
like a cut graph (detach_, requires_grad switched on after a detach, backward called while the
caller may be in no_grad), but it is the intended algorithm: the chain must not carry history from
step to step, the only gradient wanted is d energy / d sample, and enable_grad is there precisely
so the sampler also works when called from a no_grad block. Here the same sampler produces the
negative samples of a contrastive-divergence energy model on a 2-D ring, called from a no_grad
block, and the model is trained on E(data) - E(samples) with the samples held fixed. The asserts
show every chain step starts from a fresh leaf (no history builds up across steps) that still gets
a live energy graph inside the caller's no_grad block, that the energy model learns to give data
lower energy than noise, and that the Langevin samples end up near the ring.
"""
from math import sqrt

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Energy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def ring(n):
    theta = torch.rand(n) * 6.2832
    return torch.stack((theta.cos(), theta.sin()), 1) + 0.05 * torch.randn(n, 2)


def langevin_sample(model, n, steps=40, eta=0.05, record=None):
    with torch.enable_grad():
        s = (1.5 * (2 * torch.rand(n, 2) - 1))
        s.requires_grad = True
        for i in range(steps):
            model.zero_grad()
            energy = model(s).sum()
            energy.backward()
            grad = s.grad
            if record is not None:
                record.append((s.is_leaf, energy.grad_fn is not None))
            s.detach_()
            eps = sqrt(2 * eta) * torch.randn_like(s)
            s = s - eta * grad + 0.1 * eps
            s.requires_grad = True
        return s


model = Energy()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

record = []
with torch.no_grad():
    probe = langevin_sample(model, 8, steps=5, record=record)
assert all(leaf and has_graph for leaf, has_graph in record)
assert probe.is_leaf and probe.requires_grad and probe.grad_fn is None

for it in range(300):
    x_pos = ring(128)
    with torch.no_grad():
        x_neg = langevin_sample(model, 128)
    opt.zero_grad()
    e_pos, e_neg = model(x_pos), model(x_neg.detach())
    loss = e_pos.mean() - e_neg.mean() + 0.01 * (e_pos ** 2 + e_neg ** 2).mean()
    loss.backward()
    opt.step()

with torch.no_grad():
    e_data = model(ring(512)).mean().item()
    e_noise = model(3 * (2 * torch.rand(512, 2) - 1)).mean().item()
init = 1.5 * (2 * torch.rand(512, 2) - 1)
final = langevin_sample(model, 512).detach()
dist_init = (init.norm(dim=1) - 1).abs().mean().item()
dist_final = (final.norm(dim=1) - 1).abs().mean().item()
assert e_data < e_noise - 0.4, (e_data, e_noise)
assert dist_final < 0.65 * dist_init, (dist_init, dist_final)
print("ok: leaf-resetting Langevin sampler trains the EBM; ring distance", round(dist_init, 3), "->", round(dist_final, 3))
