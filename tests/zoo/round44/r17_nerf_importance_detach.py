"""
expect: none
dynamic: dismiss
source: https://github.com/yenchenlin/nerf-pytorch/blob/63a5a630c9abd62b0f21c08703d0ac2ea7d4b9dd/run_nerf.py

NeRF with hierarchical sampling. The coarse network renders each ray at stratified depths; its
compositing weights define a PDF from which extra depths are drawn for the fine network. The drawn
depths are detached (z_samples.detach() in nerf-pytorch), so the fine loss does not push gradients
into the coarse weights through the sampler. This detach is deliberate: the coarse network is still
trained by its own photometric loss, and the fine network by the fine loss. The asserts check that
the fine loss alone gives the coarse network no gradient (the cut is where it is meant to be), that
the summed loss gives both networks gradients, and that both rendered colours approach the targets
during training.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def encode(x, n_freq=6):
    out = [x]
    for k in range(n_freq):
        out += [torch.sin((2 ** k) * math.pi * x), torch.cos((2 ** k) * math.pi * x)]
    return torch.cat(out, -1)


class RadianceField(nn.Module):
    def __init__(self, width=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(13, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(),
                                 nn.Linear(width, 4))

    def forward(self, x):
        out = self.net(encode(x))
        return F.softplus(out[..., :1]), torch.sigmoid(out[..., 1:])


def render(field, origins, z_vals):
    pts = origins[:, None, None] + z_vals[..., None]
    sigma, rgb = field(pts)
    deltas = torch.cat([z_vals[:, 1:] - z_vals[:, :-1], torch.full_like(z_vals[:, :1], 1e3)], -1)
    alpha = 1 - torch.exp(-sigma[..., 0] * deltas)
    trans = torch.cumprod(torch.cat([torch.ones_like(alpha[:, :1]), 1 - alpha + 1e-10], -1), -1)[:, :-1]
    weights = alpha * trans
    return (weights[..., None] * rgb).sum(1), weights


def sample_pdf(bins, weights, n_samples):
    weights = weights + 1e-5
    pdf = weights / weights.sum(-1, keepdim=True)
    cdf = torch.cat([torch.zeros_like(pdf[:, :1]), torch.cumsum(pdf, -1)], -1)
    u = torch.rand(cdf.size(0), n_samples)
    idx = torch.searchsorted(cdf, u, right=True).clamp(1, cdf.size(1) - 1)
    lo, hi = cdf.gather(1, idx - 1), cdf.gather(1, idx)
    b_lo, b_hi = bins.gather(1, idx - 1), bins.gather(1, idx)
    frac = (u - lo) / (hi - lo).clamp(min=1e-5)
    return b_lo + frac * (b_hi - b_lo)


def true_color(origins):
    z = torch.linspace(0.0, 1.0, 2000).expand(origins.size(0), -1)
    x = origins[:, None] + z
    sigma = 40.0 * torch.exp(-((x - 0.6) / 0.05) ** 2)
    rgb = torch.stack([torch.sigmoid(8 * (x - 0.55)), 0.3 + 0.0 * x, 1 - torch.sigmoid(8 * (x - 0.6))], -1)
    delta = z[:, 1:2] - z[:, :1]
    alpha = 1 - torch.exp(-sigma * delta)
    trans = torch.cumprod(torch.cat([torch.ones_like(alpha[:, :1]), 1 - alpha], -1), -1)[:, :-1]
    return ((alpha * trans)[..., None] * rgb).sum(1)


def render_rays(coarse, fine, origins, n_coarse=32, n_fine=32):
    t = torch.linspace(0.0, 1.0, n_coarse).expand(origins.size(0), -1)
    z_coarse = t + (torch.rand_like(t) - 0.5) / n_coarse
    rgb_c, w_c = render(coarse, origins, z_coarse)
    mids = 0.5 * (z_coarse[:, 1:] + z_coarse[:, :-1])
    z_new = sample_pdf(mids, w_c[:, 1:-1], n_fine).detach()
    z_fine, _ = torch.sort(torch.cat([z_coarse, z_new], -1), -1)
    rgb_f, _ = render(fine, origins, z_fine)
    return rgb_c, rgb_f


coarse, fine = RadianceField(), RadianceField()
opt = torch.optim.Adam(list(coarse.parameters()) + list(fine.parameters()), lr=3e-3)

# the fine loss alone does not reach the coarse network: the sampled depths are cut on purpose
origins = torch.rand(64) * 0.4 - 0.2
target = true_color(origins)
rgb_c, rgb_f = render_rays(coarse, fine, origins)
F.mse_loss(rgb_f, target).backward()
assert all(p.grad is None for p in coarse.parameters())
assert any(p.grad is not None and p.grad.abs().sum() > 0 for p in fine.parameters())
opt.zero_grad()

hist = []
for step in range(300):
    origins = torch.rand(64) * 0.4 - 0.2
    target = true_color(origins)
    rgb_c, rgb_f = render_rays(coarse, fine, origins)
    loss_c, loss_f = F.mse_loss(rgb_c, target), F.mse_loss(rgb_f, target)
    opt.zero_grad()
    (loss_c + loss_f).backward()
    if step == 0:
        for net in (coarse, fine):
            assert any(p.grad is not None and p.grad.abs().sum() > 0 for p in net.parameters())
    opt.step()
    hist.append((loss_c.item(), loss_f.item()))

c0, f0 = hist[0]
c1 = sum(h[0] for h in hist[-20:]) / 20
f1 = sum(h[1] for h in hist[-20:]) / 20
assert c1 < 0.3 * c0 and f1 < 0.3 * f0, (c0, c1, f0, f1)
print(f"coarse {c0:.4f} -> {c1:.4f}, fine {f0:.4f} -> {f1:.4f}")
