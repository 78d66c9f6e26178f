"""
expect: none
dynamic: dismiss
source: https://github.com/markomih/SplatFields/issues/10

SplatFields (dynamic 3D Gaussian splatting with a neural deformation field)
detaches the canonical Gaussian centres and scales before querying the field:
xyz = gaussians.get_xyz.detach(); scaling = gaussians.get_scaling.detach();
ret = deform.step(xyz, t) (train.py, get_gaussian_dict). A user asked in issue
#10 whether this means the positions can never be optimised. The author's
answer: it is deliberate, for stability; the rendered means come from the
field, so the photometric loss trains the field (and the colour features), while
the canonical points are moved by adaptive density control, not by gradient
descent. This program reduces that to 2D splats rendered onto a small image:
the canonical xyz/scale are detached, a small MLP field predicts per-time offsets
and scale residuals, and per-splat colours are trained directly. The asserts
show the field and the colours receive gradients and the render loss falls,
while the canonical xyz gets no gradient by design and stays put.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

N_SPLATS, RES, N_FRAMES = 24, 16, 3


class CanonicalGaussians(nn.Module):
    def __init__(self):
        super().__init__()
        self._xyz = nn.Parameter(torch.rand(N_SPLATS, 2) * 2 - 1)
        self._log_scale = nn.Parameter(torch.full((N_SPLATS, 1), -2.0))
        self._features = nn.Parameter(torch.rand(N_SPLATS, 3))

    @property
    def get_xyz(self):
        return self._xyz

    @property
    def get_scaling(self):
        return self._log_scale

    @property
    def get_features(self):
        return self._features


class DeformField(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, 32), nn.Tanh(), nn.Linear(32, 3))

    def step(self, xyz, t):
        out = self.mlp(torch.cat([xyz, t], dim=1))
        return {"means": xyz + 0.3 * torch.tanh(out[:, :2]), "scales": 0.3 * out[:, 2:]}


ys, xs = torch.meshgrid(torch.linspace(-1, 1, RES), torch.linspace(-1, 1, RES), indexing="ij")
PIX = torch.stack([xs, ys], -1).reshape(-1, 2)  # (RES*RES, 2)


def render(means, log_scale, colors):
    d2 = ((PIX[:, None, :] - means[None]) ** 2).sum(-1)  # (P, N)
    w = torch.exp(-d2 / (2 * torch.exp(log_scale).T ** 2))
    return (w @ colors).clamp(max=4.0)  # (P, 3)


def gaussian_dict(gaussians, deform, fid):
    xyz = gaussians.get_xyz.detach()
    scaling = gaussians.get_scaling.detach()
    t = torch.full((xyz.shape[0], 1), fid)
    ret = deform.step(xyz, t)
    return ret["means"], ret["scales"] + scaling, gaussians.get_features


# target video: a bright blob drifting to the right
targets = []
for f in range(N_FRAMES):
    c = torch.tensor([-0.4 + 0.4 * f, 0.0])
    blob = torch.exp(-((PIX - c) ** 2).sum(-1) / 0.08)
    targets.append(torch.stack([blob, 0.5 * blob, 0.2 * blob], -1))

gaussians = CanonicalGaussians()
deform = DeformField()
opt_g = torch.optim.Adam([gaussians._features], lr=1e-2)
opt_d = torch.optim.Adam(deform.parameters(), lr=5e-3)
xyz0 = gaussians._xyz.detach().clone()
field0 = deform.mlp[0].weight.detach().clone()

hist = []
for it in range(300):
    f = it % N_FRAMES
    means, log_s, feats = gaussian_dict(gaussians, deform, f / N_FRAMES)
    loss = ((render(means, log_s, feats) - targets[f]) ** 2).mean()
    opt_g.zero_grad()
    opt_d.zero_grad()
    loss.backward()
    if it == 0:
        assert gaussians._xyz.grad is None  # canonical centres: no gradient, by design
        assert deform.mlp[0].weight.grad.abs().sum() > 0
        assert gaussians._features.grad.abs().sum() > 0
    opt_g.step()
    opt_d.step()
    hist.append(loss.item())

assert torch.equal(gaussians._xyz.detach(), xyz0)  # moved only by densification in the original
assert not torch.allclose(deform.mlp[0].weight, field0)
assert sum(hist[-15:]) / 15 < 0.5 * sum(hist[:15]) / 15
print("field trained, canonical xyz fixed; loss %.4f -> %.4f"
      % (sum(hist[:15]) / 15, sum(hist[-15:]) / 15))
