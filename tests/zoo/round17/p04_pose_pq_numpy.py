"""
expect: GL002 56
dynamic: confirm
source: https://github.com/dfki-ric/pytransform3d/issues/35

pytransform3d issue #35 ("Make it pytorch compatible?"): a user calling transform_from_pq inside an
nn.Module found the gradients were lost - the library works in NumPy (np.asarray in check_pq calls
tensor.numpy()), so the pose output has to be detached before the conversion and whatever comes
back is a fresh tensor. This program rebuilds an object-pose regressor whose point-alignment loss
converts the predicted position+quaternion with a NumPy transform helper and wraps the resulting
4x4 matrix in torch.tensor(..., requires_grad=True) so backward() runs. It asserts the regressor
never gets a gradient and its weights do not move, while the same loss written with torch ops
trains the network and lowers the alignment error.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def transform_from_pq_np(pq):
    """NumPy helper in the style of pytransform3d: (x, y, z, qw, qx, qy, qz) -> 4x4."""
    pq = np.asarray(pq, dtype=np.float64)
    w, x, y, z = pq[3:] / np.linalg.norm(pq[3:])
    R = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                  [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                  [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
    T = np.eye(4)
    T[:3, :3], T[:3, 3] = R, pq[:3]
    return T


def transform_from_pq_torch(pq):
    w, x, y, z = F.normalize(pq[3:], dim=0)
    R = torch.stack([torch.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)]),
                     torch.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)]),
                     torch.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)])])
    return R, pq[:3]


class PoseRegressor(nn.Module):
    def __init__(self, feat_dim=24):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(feat_dim, 64), nn.ReLU(), nn.Linear(64, 7))
        with torch.no_grad():
            self.net[2].bias.copy_(torch.tensor([0, 0, 0, 1.0, 0, 0, 0]))

    def forward(self, feats):
        return self.net(feats)


def alignment_loss_numpy(pq_batch, model_points, target_points):
    losses = []
    for pq, tgt in zip(pq_batch, target_points):
        T = transform_from_pq_np(pq.detach().cpu().numpy())
        T = torch.tensor(T, dtype=torch.float32, requires_grad=True)
        losses.append(F.mse_loss(model_points @ T[:3, :3].T + T[:3, 3], tgt))
    return torch.stack(losses).mean()


def alignment_loss_torch(pq_batch, model_points, target_points):
    losses = []
    for pq, tgt in zip(pq_batch, target_points):
        R, t = transform_from_pq_torch(pq)
        losses.append(F.mse_loss(model_points @ R.T + t, tgt))
    return torch.stack(losses).mean()


def train(loss_fn, steps=60):
    torch.manual_seed(0)
    model = PoseRegressor()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    model_points = torch.randn(50, 3)
    feats = torch.randn(8, 24)
    offsets = feats[:, :3] * 0.5  # ground-truth translations depend on the features
    targets = model_points.unsqueeze(0) + offsets.unsqueeze(1)
    w0 = model.net[0].weight.detach().clone()
    history, grad_seen = [], False
    for _ in range(steps):
        loss = loss_fn(model(feats), model_points, targets)
        opt.zero_grad()
        loss.backward()
        grad_seen |= model.net[0].weight.grad is not None
        opt.step()
        history.append(loss.item())
    return grad_seen, not torch.equal(w0, model.net[0].weight), history


grad_seen, moved, hist = train(alignment_loss_numpy)
assert not grad_seen and not moved, "regressor should be cut off by the NumPy round trip"
assert abs(hist[-1] - hist[0]) < 1e-6

grad_seen, moved, hist_fix = train(alignment_loss_torch)
assert grad_seen and moved and hist_fix[-1] < 0.5 * hist_fix[0], (hist_fix[0], hist_fix[-1])
print("p04 ok: pose rebuilt from NumPy and marked requires_grad never trains the regressor")
