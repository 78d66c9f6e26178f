"""
expect: none
dynamic: dismiss
source: https://github.com/Lakonik/SSDNeRF/issues/29

A user of a triplane NeRF library noticed that the density bitfield returned
by get_density has no gradient and asked whether the density MLP is then
trained at all. The bitfield is an occupancy grid used only to skip empty
samples while ray marching; it is rebuilt under no_grad on purpose, and the
density MLP is trained through the volume-rendered colour. Here the renderer
refreshes the grid under no_grad and thresholds it to a boolean mask, then
composites densities computed with gradients. The asserts show the density
and colour heads both get gradients and the photometric loss drops.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

GRID, N_RAYS, N_SAMPLES = 8, 64, 16


class TinyField(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(3, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.sigma = nn.Linear(64, 1)
        self.rgb = nn.Linear(64, 3)

    def density(self, x):
        return F.softplus(self.sigma(self.trunk(x))).squeeze(-1)

    def forward(self, x):
        h = self.trunk(x)
        return F.softplus(self.sigma(h)).squeeze(-1), torch.sigmoid(self.rgb(h))


class OccupancyRenderer:
    def __init__(self, field, thresh=0.01):
        self.field = field
        self.thresh = thresh
        self.bitfield = torch.ones(GRID, GRID, GRID, dtype=torch.bool)

    @torch.no_grad()
    def update_bitfield(self):
        lin = torch.linspace(-1, 1, GRID)
        pts = torch.stack(torch.meshgrid(lin, lin, lin, indexing="ij"), -1).reshape(-1, 3)
        self.bitfield = (self.field.density(pts) > self.thresh).reshape(GRID, GRID, GRID)

    def render(self, origins, dirs):
        t = torch.linspace(0.1, 2.0, N_SAMPLES)
        pts = origins[:, None] + dirs[:, None] * t[None, :, None]
        idx = ((pts.clamp(-1, 1) + 1) / 2 * (GRID - 1)).round().long()
        occupied = self.bitfield[idx[..., 0], idx[..., 1], idx[..., 2]]
        sigma, rgb = self.field(pts)
        sigma = sigma * occupied
        delta = t[1] - t[0]
        alpha = 1 - torch.exp(-sigma * delta)
        trans = torch.cumprod(torch.cat([torch.ones(N_RAYS, 1), 1 - alpha + 1e-10], 1), 1)[:, :-1]
        w = alpha * trans
        return (w[..., None] * rgb).sum(1)


field = TinyField()
renderer = OccupancyRenderer(field)
opt = torch.optim.Adam(field.parameters(), lr=5e-3)
origins = torch.rand(N_RAYS, 3) * 0.2 - 1.0
dirs = F.normalize(torch.rand(N_RAYS, 3) + 0.2, dim=-1)
target = torch.rand(N_RAYS, 3) * 0.5 + 0.25
losses = []
for it in range(60):
    if it % 10 == 0:
        renderer.update_bitfield()
        assert not renderer.bitfield.requires_grad
    opt.zero_grad()
    loss = F.mse_loss(renderer.render(origins, dirs), target)
    loss.backward()
    if it == 0:
        assert field.sigma.weight.grad.abs().sum() > 0
        assert field.rgb.weight.grad.abs().sum() > 0
        assert field.trunk[0].weight.grad.abs().sum() > 0
    opt.step()
    losses.append(loss.item())

assert losses[-1] < 0.5 * losses[0]
print("ok: density MLP trains through rendering; bitfield is only a mask,", losses[0], "->", losses[-1])
