"""
expect: none
dynamic: dismiss
source: https://github.com/JokerYan/NeRF-DS/issues/5

NeRF-DS (a HyperNeRF derivative) adds several regularizers on per-sample quantities
along each ray (mask, predicted normals, hyper-coordinates) and weights them by the
volume-rendering weights, but it takes those weights through a stop-gradient
(`lax.stop_gradient(model_out['weights'])`); the issue asks why the weights are
detached. It is deliberate: the regularizer should train the head that predicts the
per-sample quantity, concentrated where the ray actually hits the surface, without
letting that auxiliary term move the density field (otherwise the cheapest way to lower
it is to push density away from samples where the auxiliary head is wrong, and the
geometry is then shaped by the regularizer instead of by the photometric loss). This
PyTorch copy renders a tiny 1-D-per-ray field: density and colour MLPs trained by the
RGB loss, plus a normal head trained by a weight-weighted normal loss that uses
`weights.detach()`. The asserts show the normal loss alone gives the density MLP an
exactly-zero gradient and the normal head a non-zero one, that without the detach the
normal loss would leak into the density MLP, and that over training the RGB loss, the
normal loss and the density MLP all improve/move as intended.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_RAYS, N_SAMPLES = 64, 16


class TinyField(nn.Module):
    def __init__(self):
        super().__init__()
        self.density = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 1))
        self.color = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 3))
        self.normal = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 3))

    def forward(self, pts, deltas):
        sigma = F.softplus(self.density(pts)).squeeze(-1)            # (R, S)
        alpha = 1 - torch.exp(-sigma * deltas)
        trans = torch.cumprod(torch.cat([torch.ones_like(alpha[:, :1]),
                                         1 - alpha[:, :-1] + 1e-10], 1), 1)
        weights = alpha * trans                                          # (R, S)
        rgb = (weights[..., None] * torch.sigmoid(self.color(pts))).sum(1)
        normals = F.normalize(self.normal(pts), dim=-1)
        return {"rgb": rgb, "weights": weights, "normals": normals}


def losses(out, target_rgb, target_normals, stop_weights=True):
    rgb_loss = ((out["rgb"] - target_rgb) ** 2).mean()
    weights = out["weights"].detach() if stop_weights else out["weights"]
    norm_diff = torch.linalg.norm(out["normals"] - target_normals, dim=-1)
    normal_loss = (weights * norm_diff).sum(1).mean()
    return rgb_loss, normal_loss


def make_batch():
    origins = torch.randn(N_RAYS, 1, 3) * 0.1
    dirs = F.normalize(torch.randn(N_RAYS, 1, 3), dim=-1)
    t = torch.linspace(0.0, 2.0, N_SAMPLES)[None, :, None]
    pts = origins + dirs * t
    deltas = torch.full((N_RAYS, N_SAMPLES), 2.0 / N_SAMPLES)
    target_rgb = torch.sigmoid(pts[:, N_SAMPLES // 2] * 3)
    target_normals = F.normalize(pts + 1e-3, dim=-1)
    return pts, deltas, target_rgb, target_normals


def grad_norm(module):
    return sum(p.grad.abs().sum().item() for p in module.parameters() if p.grad is not None)


if __name__ == "__main__":
    field = TinyField()
    pts, deltas, target_rgb, target_normals = make_batch()

    # the auxiliary term alone: trains the normal head, leaves the density field alone
    field.zero_grad()
    _, normal_loss = losses(field(pts, deltas), target_rgb, target_normals)
    normal_loss.backward()
    assert grad_norm(field.density) == 0.0
    assert grad_norm(field.normal) > 0.0
    # without the stop-gradient the same term would reach the density field
    field.zero_grad()
    _, leaky = losses(field(pts, deltas), target_rgb, target_normals, stop_weights=False)
    leaky.backward()
    assert grad_norm(field.density) > 0.0

    opt = torch.optim.Adam(field.parameters(), lr=5e-3)
    density_before = [p.detach().clone() for p in field.density.parameters()]
    with torch.no_grad():
        rgb0, nrm0 = losses(field(pts, deltas), target_rgb, target_normals)
    for _ in range(150):
        rgb_loss, normal_loss = losses(field(pts, deltas), target_rgb, target_normals)
        opt.zero_grad()
        (rgb_loss + 0.1 * normal_loss).backward()
        opt.step()
    with torch.no_grad():
        rgb1, nrm1 = losses(field(pts, deltas), target_rgb, target_normals)
    assert rgb1 < rgb0 and nrm1 < nrm0
    assert any(not torch.equal(b, p) for b, p in zip(density_before, field.density.parameters()))
    print("ok: detached rendering weights confine the regularizer to its own head; all parts train")
