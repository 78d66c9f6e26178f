"""expect: GL002 ot_loss.py:28
dynamic: confirm
source: https://github.com/PythonOT/POT/issues/393

A small generator maps Gaussian noise to a 2-D point cloud and is trained to match a ring-shaped target with
an entropic Wasserstein (Sinkhorn) loss plus a mean-matching term. The OT helper computes the squared-distance
cost matrix in NumPy on `to_numpy(xs)` and wraps it back with torch.from_numpy, as the library's
empirical_sinkhorn2 did before the fix: the cost matrix, and with it the whole OT term, is a constant, so the
generator is trained by the mean term only and never learns the ring. The asserts show the OT term has no
grad_fn, that the generator's gradient equals the mean term's gradient alone, and that computing the cost
with torch.cdist instead makes the OT distance fall several-fold.
"""
import math

import torch
import torch.nn as nn

from ot_loss import empirical_sinkhorn2, empirical_sinkhorn2_fixed

torch.manual_seed(0)
torch.set_num_threads(1)


def make_generator():
    return nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 2))


def ring(n):
    ang = torch.rand(n) * 2 * math.pi
    return torch.stack([torch.cos(ang), torch.sin(ang)], dim=1) * 2.0 + torch.tensor([1.0, -0.5])


def train(ot_fn, steps=150):
    torch.manual_seed(1)
    gen = make_generator()
    opt = torch.optim.Adam(gen.parameters(), lr=1e-2)
    z_eval, tgt_eval = torch.randn(64, 4), ring(64)
    with torch.no_grad():
        start = empirical_sinkhorn2_fixed(gen(z_eval), tgt_eval).item()
    for _ in range(steps):
        pts, tgt = gen(torch.randn(64, 4)), ring(64)
        loss = ot_fn(pts, tgt) + (pts.mean(0) - tgt.mean(0)).pow(2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        end = empirical_sinkhorn2_fixed(gen(z_eval), tgt_eval).item()
    return start, end


# One step, looked at closely: the OT term carries no gradient at all.
gen = make_generator()
pts, tgt = gen(torch.randn(64, 4)), ring(64)
ot_term = empirical_sinkhorn2(pts, tgt)
assert ot_term.grad_fn is None and not ot_term.requires_grad
mean_term = (pts.mean(0) - tgt.mean(0)).pow(2).sum()
g_total = torch.autograd.grad(ot_term + mean_term, list(gen.parameters()), retain_graph=True)
g_mean = torch.autograd.grad(mean_term, list(gen.parameters()))
assert all(torch.allclose(a, b) for a, b in zip(g_total, g_mean))

start_bug, end_bug = train(empirical_sinkhorn2)
start_fix, end_fix = train(empirical_sinkhorn2_fixed)
assert end_fix < 0.3 * start_fix
assert end_bug > 2 * end_fix
print("ok: OT distance with NumPy cost %.3f -> %.3f, with torch cost %.3f -> %.3f" % (start_bug, end_bug, start_fix, end_fix))
