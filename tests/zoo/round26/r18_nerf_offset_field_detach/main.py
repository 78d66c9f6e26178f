"""
expect: GL001 tensorf_field.py:18, GL001 tensorf_field.py:20
dynamic: confirm
source: https://github.com/ashawkey/torch-ngp/issues/60

A torch-ngp user added a network that moves sample positions before the TensoRF field
and saw its weights never change; the maintainer confirmed the field detaches its
plane/line sampling coordinates, as the original TensoRF code does. Harmless for a
static scene, that detach cuts the only path from the photometric loss to whatever
produces the positions. Here a deformation MLP offsets ray samples, the field
(tensorf_field.py) samples its factor grids at detached coordinates, and a small volume
renderer is trained; the asserts show the deformation net gets no gradient while the
grids do, and that the same field without the detach lets the offsets learn.
"""
import torch
import torch.nn as nn

from tensorf_field import TensoRFField

torch.manual_seed(0)
torch.set_num_threads(1)
RAYS, SAMPLES = 64, 16


class Deformation(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 3))

    def forward(self, x, t):
        return x + 0.1 * torch.tanh(self.net(torch.cat([x, t.expand(x.shape[0], 1)], -1)))


def render(field, deform, origins, dirs, t):
    z = torch.linspace(0.0, 1.0, SAMPLES)
    pts = (origins[:, None] + dirs[:, None] * z[None, :, None]).reshape(-1, 3)
    pts = deform(pts.clamp(-1, 1), t)
    sigma, rgb = field(pts)
    sigma, rgb = sigma.view(RAYS, SAMPLES), rgb.view(RAYS, SAMPLES, 3)
    alpha = 1 - torch.exp(-sigma / SAMPLES)
    trans = torch.cumprod(torch.cat([torch.ones(RAYS, 1), 1 - alpha + 1e-10], -1), -1)[:, :-1]
    return ((alpha * trans)[..., None] * rgb).sum(1)


origins = torch.rand(RAYS, 3) * 2 - 1
dirs = nn.functional.normalize(torch.randn(RAYS, 3), dim=-1)
t = torch.tensor([[0.5]])
target = torch.rand(RAYS, 3)

field, deform = TensoRFField(), Deformation()
opt = torch.optim.Adam(list(field.parameters()) + list(deform.parameters()), lr=1e-2)
for _ in range(5):
    opt.zero_grad()
    loss = (render(field, deform, origins, dirs, t) - target).pow(2).mean()
    loss.backward()
    opt.step()
assert all(p.grad is None for p in deform.parameters())
assert field.planes.grad.abs().sum() > 0


class NoDetachField(TensoRFField):
    def get_feat(self, x):
        mat_coord = torch.stack([x[..., m] for m in self.mat_mode]).view(3, -1, 1, 2)
        vec_coord = torch.stack([x[..., v] for v in self.vec_mode])
        vec_coord = torch.stack([torch.zeros_like(vec_coord), vec_coord], -1).view(3, -1, 1, 2)
        plane = nn.functional.grid_sample(self.planes, mat_coord, align_corners=True).view(3, self.planes.shape[1], -1)
        line = nn.functional.grid_sample(self.lines, vec_coord, align_corners=True).view(3, self.lines.shape[1], -1)
        return (plane * line).permute(2, 0, 1).reshape(x.shape[0], -1)


field2 = NoDetachField()
field2.load_state_dict(field.state_dict())
loss = (render(field2, deform, origins, dirs, t) - target).pow(2).mean()
loss.backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in deform.parameters())
print("ok: detached sampling coordinates starve the deformation network")
