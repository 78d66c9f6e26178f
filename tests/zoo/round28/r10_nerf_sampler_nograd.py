"""
expect: none
dynamic: dismiss
source: https://github.com/nerfstudio-project/nerfacc/issues/130

nerfacc thread: can ray_marching (which calls the density network through
alpha_fn to prune empty samples) be wrapped in torch.no_grad()? Yes: marching only
picks sample intervals; the radiance field is queried again, with grad, when the
kept samples are rendered. This tiny NeRF keeps that split in a renderer class:
the occupancy-style sampler runs under no_grad, then the field is re-evaluated for
volume rendering. Asserts: the field gets the same gradient as with a grad-enabled
sampler, and the photometric loss goes down.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Field(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 4))

    def forward(self, pts):
        out = self.mlp(pts)
        return torch.relu(out[..., :1]) + 0.05, torch.sigmoid(out[..., 1:])


class Renderer:
    def __init__(self, field, n_samples=24, near=0.5, far=2.5, alpha_thre=1e-3, sampler_grad=False):
        self.field = field
        self.t = torch.linspace(near, far, n_samples + 1)
        self.alpha_thre = alpha_thre
        self.sampler_grad = sampler_grad

    def march(self, rays_o, rays_d):
        starts, ends = self.t[:-1], self.t[1:]
        mids = 0.5 * (starts + ends)
        pts = rays_o[:, None] + rays_d[:, None] * mids[None, :, None]
        sigma, _ = self.field(pts)
        alpha = 1 - torch.exp(-sigma[..., 0] * (ends - starts))
        keep = alpha > self.alpha_thre
        return starts, ends, keep

    def render(self, rays_o, rays_d):
        if self.sampler_grad:
            starts, ends, keep = self.march(rays_o, rays_d)
        else:
            with torch.no_grad():
                starts, ends, keep = self.march(rays_o, rays_d)
        mids = 0.5 * (starts + ends)
        pts = rays_o[:, None] + rays_d[:, None] * mids[None, :, None]
        sigma, rgb = self.field(pts)
        alpha = (1 - torch.exp(-sigma[..., 0] * (ends - starts))) * keep
        trans = torch.cumprod(torch.cat([torch.ones_like(alpha[:, :1]), 1 - alpha[:, :-1] + 1e-10], 1), 1)
        w = alpha * trans
        return (w[..., None] * rgb).sum(1)


rays_o = torch.zeros(64, 3)
rays_d = nn.functional.normalize(torch.randn(64, 3), dim=-1)
target = torch.rand(64, 3)

field = Field()
twin = Field()
twin.load_state_dict(field.state_dict())

loss_a = ((Renderer(field).render(rays_o, rays_d) - target) ** 2).mean()
loss_a.backward()
loss_b = ((Renderer(twin, sampler_grad=True).render(rays_o, rays_d) - target) ** 2).mean()
loss_b.backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in field.parameters())
assert all(torch.allclose(a.grad, b.grad, atol=1e-7) for a, b in zip(field.parameters(), twin.parameters()))

opt = torch.optim.Adam(field.parameters(), lr=1e-2)
renderer = Renderer(field)
first = None
for step in range(60):
    loss = ((renderer.render(rays_o, rays_d) - target) ** 2).mean()
    first = loss.item() if first is None else first
    opt.zero_grad()
    loss.backward()
    opt.step()
assert loss.item() < first
print("ok: no_grad sampler, grad-enabled rendering;", first, "->", loss.item())
