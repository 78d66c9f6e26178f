"""expect: none
dynamic: dismiss
source: https://github.com/kwea123/nerf_pl/blob/master/models/rendering.py

A coarse-to-fine NeRF step after nerf_pl: the coarse MLP is rendered along stratified samples, its compositing weights
define a piecewise-constant PDF, new depths are drawn from that PDF (rendering.py, sample_pdf), and the fine MLP is
rendered on the union of both sample sets. The weights are passed as `weights_coarse[:, 1:-1].detach()`, and sample_pdf
edits `denom` in place; both look like breakage but are deliberate: sampling positions should not push gradients into
the coarse density, the coarse MLP is trained by its own photometric term, and `denom` is built only from the detached
weights, so no recorded op saved it. The asserts check that one optimizer step gives both MLPs finite non-zero
gradients, that dropping the coarse loss term leaves the coarse MLP without a gradient (so the detach really is the
intended cut), and that the joint loss goes down over a short fit.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from rendering import render_rays

torch.manual_seed(0)
torch.set_num_threads(1)


def make_field():
    return nn.Sequential(nn.Linear(3, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 4))


def scene_color(rays_d):
    return torch.sigmoid(3 * rays_d)


models = {"coarse": make_field(), "fine": make_field()}
params = list(models["coarse"].parameters()) + list(models["fine"].parameters())
opt = torch.optim.Adam(params, lr=5e-3)

rays_o = torch.zeros(128, 3)
rays_d = F.normalize(torch.randn(128, 3), dim=-1)
target = scene_color(rays_d)

res = render_rays(models, rays_o, rays_d)
(F.mse_loss(res["rgb_coarse"], target) + F.mse_loss(res["rgb_fine"], target)).backward()
for name in ("coarse", "fine"):
    grads = [p.grad for p in models[name].parameters()]
    assert all(g is not None and torch.isfinite(g).all() for g in grads)
    assert sum(float(g.abs().sum()) for g in grads) > 0

# without the coarse term the coarse MLP gets nothing: the detach in render_rays is the intended cut
opt.zero_grad(set_to_none=True)
res = render_rays(models, rays_o, rays_d)
F.mse_loss(res["rgb_fine"], target).backward()
assert all(p.grad is None for p in models["coarse"].parameters())

first = None
for step in range(60):
    opt.zero_grad()
    res = render_rays(models, rays_o, rays_d)
    loss = F.mse_loss(res["rgb_coarse"], target) + F.mse_loss(res["rgb_fine"], target)
    loss.backward()
    opt.step()
    if first is None:
        first = loss.item()
assert loss.item() < 0.5 * first, (first, loss.item())
print("coarse+fine photometric loss %.4f -> %.4f" % (first, loss.item()))
