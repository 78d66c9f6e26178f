"""
expect: none
dynamic: dismiss
source: kinds check 34, kind 5

A learned optimizer relaxes a 2-D chain of springs: per-step log step sizes are
meta-parameters. The bead positions x are carried across steps with history;
each step takes torch.autograd.grad(step_energy, x, retain_graph=True) w.r.t. the
carried x only, and the summed energies are backpropagated once after the loop.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
N_BEADS, STEPS = 10, 15


def energy(x):
    bonds = (x[1:] - x[:-1]).norm(dim=-1)
    return ((bonds - 1.0) ** 2).sum()


log_lr = nn.Parameter(torch.full((STEPS,), -3.0))
meta_opt = torch.optim.Adam([log_lr], lr=0.05)


def unroll(x0, visits=None):
    x = x0.clone().requires_grad_(True)
    meta_loss = 0.0
    for t in range(STEPS):
        step_energy = energy(x)
        g, = torch.autograd.grad(step_energy, x, retain_graph=True)
        meta_loss = meta_loss + step_energy
        x = x - log_lr[t].exp() * g
        if visits is not None and t == 0:
            x.register_hook(lambda grad: visits.append(1))
    return meta_loss + energy(x)


x0 = torch.randn(N_BEADS, 2) * 0.7
history = []
for it in range(30):
    visits = []
    meta_loss = unroll(x0, visits)
    meta_opt.zero_grad()
    meta_loss.backward()
    meta_opt.step()
    history.append(meta_loss.item())
    if it == 0:
        first_visits = len(visits)

print(f"meta-loss {history[0]:.3f} -> {history[-1]:.3f}; step-1 state traversed {first_visits}x")
# the first carried state is traversed by one autograd.grad (at step 1) and the single meta backward,
# independent of the unroll length
assert first_visits == 2
assert history[-1] < history[0]
