"""
expect: GL001 renderers.py:14
dynamic: confirm
source: https://github.com/nerfstudio-project/nerfstudio/pull/2851

A NeRF model adds depth supervision (L1 between rendered depth and sensor depth),
but the depth renderer it calls computes the expected depth inside torch.no_grad(),
as the nerfacto depth computation did. The rendered depth is therefore a constant and
the depth loss term contributes nothing to the field's gradient. The asserts show that
the field's gradient is identical with and without the depth term, while the fixed
renderer makes the depth term change the gradient.
"""
import torch
from torch import nn

from renderers import RGBRenderer, DepthRenderer, DepthRendererFixed, composite_weights

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyField(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 4))

    def forward(self, pts):
        out = self.mlp(pts)
        return torch.nn.functional.softplus(out[..., 0]), torch.sigmoid(out[..., 1:])


class TinyNeRF(nn.Module):
    def __init__(self, depth_renderer):
        super().__init__()
        self.field = TinyField()
        self.rgb_renderer = RGBRenderer()
        self.depth_renderer = depth_renderer

    def forward(self, origins, dirs, t_vals):
        pts = origins[:, None, :] + dirs[:, None, :] * t_vals[..., None]
        density, rgb = self.field(pts)
        deltas = torch.cat([t_vals[:, 1:] - t_vals[:, :-1], torch.full_like(t_vals[:, :1], 1e10)], -1)
        w = composite_weights(density, deltas)
        return {"rgb": self.rgb_renderer(rgb, w), "depth": self.depth_renderer(w, t_vals)}


def loss_fn(out, batch, depth_weight):
    rgb_loss = ((out["rgb"] - batch["rgb"]) ** 2).mean()
    depth_loss = (out["depth"] - batch["depth"]).abs().mean()
    return rgb_loss + depth_weight * depth_loss


def field_grad(model, batch, depth_weight):
    model.zero_grad()
    out = model(batch["o"], batch["d"], batch["t"])
    loss_fn(out, batch, depth_weight).backward()
    return torch.cat([p.grad.flatten() for p in model.field.parameters()])


n_rays, n_samples = 16, 24
batch = {
    "o": torch.randn(n_rays, 3),
    "d": nn.functional.normalize(torch.randn(n_rays, 3), dim=-1),
    "t": torch.linspace(0.5, 4.0, n_samples).expand(n_rays, n_samples).contiguous(),
    "rgb": torch.rand(n_rays, 3),
    "depth": torch.rand(n_rays) * 3 + 0.5,
}

model = TinyNeRF(DepthRenderer())
g_without = field_grad(model, batch, 0.0)
g_with = field_grad(model, batch, 10.0)
# the depth loss term does not move the field at all
assert torch.allclose(g_without, g_with)

fixed = TinyNeRF(DepthRendererFixed())
fixed.load_state_dict(model.state_dict())
f_without = field_grad(fixed, batch, 0.0)
f_with = field_grad(fixed, batch, 10.0)
assert torch.allclose(f_without, g_without)
assert (f_with - f_without).abs().max() > 1e-4
print("ok: depth term is inert under no_grad, active when fixed")
