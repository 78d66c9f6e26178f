"""expect: GL005 46
dynamic: confirm
source: https://github.com/dogyoonlee/DP-NeRF/issues/2

Tiny NeRF with a learnable per-image rigid warp (axis-angle rotation) applied to ray samples
before querying the radiance field. The rotation angle comes from torch.linalg.norm, whose
output autograd saves, and `theta += 1.0e-10` then edits that output in place to avoid a
division by zero, so the rendering loss's backward raises.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RadianceField(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, hidden), nn.ReLU(), nn.Linear(hidden, 4))

    def forward(self, pts):
        out = self.mlp(pts)
        return torch.sigmoid(out[..., :3]), F.relu(out[..., 3])


def sample_along_rays(origins, dirs, n_samples=16):
    t_vals = torch.linspace(0.5, 3.0, n_samples)
    pts = origins[:, None] + dirs[:, None] * t_vals[None, :, None]
    return pts, t_vals


torch.manual_seed(0)
n_images = 3
field = RadianceField()
warp_rot = nn.Parameter(torch.randn(n_images, 3) * 1e-2)
opt = torch.optim.Adam(list(field.parameters()) + [warp_rot], lr=5e-4)

raised = False
for it in range(3):
    img = it % n_images
    origins, dirs = torch.zeros(64, 3), F.normalize(torch.randn(64, 3), dim=-1)
    target_rgb = torch.rand(64, 3)

    pts, t_vals = sample_along_rays(origins, dirs)
    w = warp_rot[img]
    theta = torch.linalg.norm(w, dim=-1)
    theta += 1.0e-10
    axis = w / theta
    K = torch.zeros(3, 3).index_put((torch.tensor([0, 0, 1, 1, 2, 2]), torch.tensor([1, 2, 0, 2, 0, 1])),
                                    torch.stack([-axis[2], axis[1], axis[2], -axis[0], -axis[1], axis[0]]))
    R = torch.eye(3) + torch.sin(theta) * K + (1 - torch.cos(theta)) * (K @ K)
    warped = pts @ R.t()

    rgb, sigma = field(warped)
    delta = torch.cat([t_vals[1:] - t_vals[:-1], torch.tensor([1e10])])
    alpha = 1 - torch.exp(-sigma * delta)
    trans = torch.cumprod(torch.cat([torch.ones(64, 1), 1 - alpha + 1e-10], dim=-1), dim=-1)[:, :-1]
    pixel = ((alpha * trans)[..., None] * rgb).sum(dim=1)
    loss = F.mse_loss(pixel, target_rgb)

    opt.zero_grad()
    try:
        loss.backward()
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err)
        raised = True
        break
    opt.step()

assert raised
print("ok: backward raised on in-place edit of the saved norm")
