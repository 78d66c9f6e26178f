"""
expect: GL002 geometry.py:21, GL003 46
dynamic: confirm
source: https://github.com/EasonChen99/I2D-Loc/issues/8

A camera-to-lidar localisation repo adds a PnP pose loss on top of a flow
network. The reporter shows the flow is snapped with .int(), turned into a
NumPy array, rebuilt with torch.tensor(...) into 2D points, and then given
requires_grad = True on the rebuilt points. Here the helper in geometry.py
does the same round trip; the trainer then marks the rebuilt points as
requiring grad. backward() runs, but the flow network never receives a
gradient from the pose loss; the asserts show its .grad stays None while a
torch-only variant of the same correspondence step does train it.
"""
import torch
import torch.nn as nn

from geometry import correspondences_from_flow, sample_grid, solve_projection

torch.manual_seed(0)
torch.set_num_threads(1)

H = W = 12


class FlowNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(8, 2, 3, padding=1))

    def forward(self, rgb_and_depth):
        return 3.0 * torch.tanh(self.body(rgb_and_depth))


net = FlowNet()
opt = torch.optim.SGD(net.parameters(), lr=1e-3)
depth = 1.0 + torch.rand(H, W)
image = torch.randn(1, 3, H, W)
P_gt = torch.randn(4, 2)


def pose_step():
    flow = net(torch.cat([image, depth[None, None]], dim=1))[0]
    pts2d, pts3d = correspondences_from_flow(flow, depth)
    pts2d.requires_grad = True
    P = solve_projection(pts2d, pts3d)
    loss = (P - P_gt).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    return loss


loss = pose_step()
assert torch.isfinite(loss)
assert all(p.grad is None for p in net.parameters()), "pose loss reached the flow net?"

# Torch-only correspondences (no int snapping, no NumPy): the net does get gradients.
opt.zero_grad()
flow = net(torch.cat([image, depth[None, None]], dim=1))[0]
grid = torch.as_tensor(sample_grid(H, W, 2))
moved = grid.float() + flow[:, grid[:, 1], grid[:, 0]].T
z = depth[grid[:, 1], grid[:, 0]].unsqueeze(1)
pts3d = torch.cat([grid.float() * z, z], dim=1)
fixed_loss = (solve_projection(moved, pts3d) - P_gt).pow(2).mean()
fixed_loss.backward()
g = sum(p.grad.abs().sum() for p in net.parameters())
assert g > 0, g
print("round-trip: flow net grads None; torch-only variant grad norm", float(g))
