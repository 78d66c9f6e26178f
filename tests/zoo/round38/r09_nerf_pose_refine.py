"""
expect: GL001 49
dynamic: confirm
source: https://github.com/nerfstudio-project/nerfstudio/issues/2552

nerfstudio issue: with a trained NeRF frozen (eval, weights fixed) and only a camera pose
parameter given to Adam, pose.grad stays None and the pose never moves. The pose enters through
the ray origins/directions, but the occupancy-grid sampler that places samples along the rays
builds the 3D sample positions inside a no_grad block (it only meant to skip empty space), so the
rendered colour depends on the pose only through tensors without history. This program renders
a few rays through a frozen toy field; the asserts show pose.grad is None with the sampler as
written, and non-zero (and the pose moves) when only the step sizes are chosen without grad and
the positions are formed from the differentiable rays.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class FrozenField(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 32), nn.Tanh(), nn.Linear(32, 4))
        self.eval().requires_grad_(False)

    def forward(self, pts):
        out = self.net(pts)
        return torch.relu(out[..., :1]), torch.sigmoid(out[..., 1:])


def se3_apply(pose, origins, dirs):
    rot_delta = torch.eye(3) + torch.tensor([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]]) * pose[2]
    return origins + pose[None, :3] * torch.tensor([1.0, 1.0, 0.0]), dirs @ rot_delta.T


class OccupancySampler:
    def __init__(self, field, n=16, differentiable_positions=False):
        self.field, self.n = field, n
        self.differentiable_positions = differentiable_positions

    def __call__(self, origins, dirs):
        t = torch.linspace(0.1, 2.0, self.n)
        if self.differentiable_positions:
            with torch.no_grad():
                keep = self.field(origins[:, None] + t[None, :, None] * dirs[:, None])[0] > -1
            return origins[:, None] + t[None, :, None] * dirs[:, None], t, keep
        with torch.no_grad():
            pts = origins[:, None] + t[None, :, None] * dirs[:, None]
            keep = self.field(pts)[0] > -1            # skip empty cells
        return pts, t, keep


def render(field, sampler, pose, origins, dirs):
    o, d = se3_apply(pose, origins, dirs)
    pts, t, keep = sampler(o, d)
    sigma, rgb = field(pts)
    sigma = sigma * keep
    delta = t[1] - t[0]
    alpha = 1 - torch.exp(-sigma[..., 0] * delta)
    trans = torch.cumprod(torch.cat([torch.ones_like(alpha[:, :1]), 1 - alpha[:, :-1]], 1), 1)
    return ((alpha * trans)[..., None] * rgb).sum(1)


field = FrozenField()
origins = torch.randn(32, 3) * 0.1
dirs = torch.nn.functional.normalize(torch.randn(32, 3) + torch.tensor([0.0, 0.0, 2.0]), dim=-1)
with torch.no_grad():
    target = render(field, OccupancySampler(field, differentiable_positions=True),
                    torch.tensor([0.05, -0.05, 0.1]), origins, dirs)


def refine(sampler, steps=3):
    pose = nn.Parameter(torch.zeros(3))
    opt = torch.optim.Adam([pose], lr=1e-2)
    for _ in range(steps):
        loss = (render(field, sampler, pose, origins, dirs) - target).pow(2).mean()
        opt.zero_grad()
        if loss.requires_grad:
            loss.backward()
        opt.step()
    return pose


pose = refine(OccupancySampler(field))
assert pose.grad is None and torch.all(pose == 0)

pose = refine(OccupancySampler(field, differentiable_positions=True))
assert pose.grad is not None and pose.grad.abs().sum() > 0
assert pose.detach().abs().sum() > 0
print("ok")
