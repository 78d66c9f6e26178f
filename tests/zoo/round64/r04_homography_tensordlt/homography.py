import torch
import torch.nn as nn
import torch.nn.functional as F


class HomographyNet(nn.Module):
    """Regresses the 4-corner offsets (8 numbers) between two stacked patches."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(2, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.fc = nn.Linear(8 * 4 * 4, 8)

    def forward(self, x):
        return 0.1 * self.fc(self.features(x).flatten(1))


def tensor_dlt(c_a, h4pt):
    """Direct linear transform: 4 corner correspondences -> 3x3 homography."""
    batch = h4pt.shape[0]
    c_b = c_a + h4pt.view(batch, 4, 2)
    hs = []
    for i in range(batch):
        ca, cb = c_a[i], c_b[i]
        rows, rhs = [], []
        for j in range(4):
            rows.append([0, 0, 0, -ca[j, 0], -ca[j, 1], -1, cb[j, 1] * ca[j, 0], cb[j, 1] * ca[j, 1]])
            rows.append([ca[j, 0], ca[j, 1], 1, 0, 0, 0, -cb[j, 0] * ca[j, 0], -cb[j, 0] * ca[j, 1]])
            rhs.append([-cb[j, 1]])
            rhs.append([cb[j, 0]])
        A = torch.tensor(rows, dtype=torch.float32).reshape(8, 8)
        A.requires_grad = True
        b = torch.tensor(rhs, dtype=torch.float32).reshape(8, 1)
        b.requires_grad = True
        x = torch.linalg.pinv(A) @ b
        hs.append(torch.cat([x, torch.ones(1, 1)], dim=0).reshape(3, 3))
    return torch.stack(hs)


def tensor_dlt_stacked(c_a, h4pt):
    """Same DLT, with the rows assembled by tensor ops so the graph survives."""
    batch = h4pt.shape[0]
    c_b = c_a + h4pt.view(batch, 4, 2)
    x, y = c_a[..., 0], c_a[..., 1]
    u, v = c_b[..., 0], c_b[..., 1]
    zero, one = torch.zeros_like(x), torch.ones_like(x)
    r1 = torch.stack([zero, zero, zero, -x, -y, -one, v * x, v * y], dim=-1)
    r2 = torch.stack([x, y, one, zero, zero, zero, -u * x, -u * y], dim=-1)
    A = torch.stack([r1, r2], dim=2).reshape(batch, 8, 8)
    b = torch.stack([-v, u], dim=2).reshape(batch, 8, 1)
    sol = torch.linalg.pinv(A) @ b
    return torch.cat([sol, torch.ones(batch, 1, 1)], dim=1).reshape(batch, 3, 3)


def warp(patch, H):
    """Sample `patch` at H applied to every output pixel (normalised coords)."""
    n, _, h, w = patch.shape
    ys, xs = torch.meshgrid(torch.linspace(-1, 1, h), torch.linspace(-1, 1, w), indexing="ij")
    pts = torch.stack([xs, ys, torch.ones_like(xs)], dim=-1).reshape(1, -1, 3).expand(n, -1, -1)
    mapped = pts @ H.transpose(1, 2)
    grid = (mapped[..., :2] / mapped[..., 2:3]).reshape(n, h, w, 2)
    return F.grid_sample(patch, grid, align_corners=True)


def photometric_loss(warped_a, p_b):
    return torch.mean(torch.abs(warped_a - p_b))
