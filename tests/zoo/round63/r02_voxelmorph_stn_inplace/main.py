"""
expect: none
dynamic: dismiss
source: https://github.com/voxelmorph/voxelmorph/blob/539e331a852087b19bd12720082b0d0787193ffe/voxelmorph/torch/layers.py#L37

VoxelMorph's SpatialTransformer adds the predicted displacement field to a
registered identity grid and then rescales every axis to [-1, 1] with an
indexed in-place write (`new_locs[:, i, ...] = 2 * (...)`) before calling
grid_sample.  An in-place write on a tensor that carries the flow network's
history looks dangerous, but here it is safe: `new_locs` is the fresh result of
an addition, which saves nothing for backward, and the right-hand side only
multiplies/divides by Python numbers, which do not save their input either.
Autograd records the slice assignment as a copy and routes gradients back into
the flow.  This program keeps the layer in `layers.py`, trains a tiny
registration CNN on a shifted random image pair with an image-similarity plus
smoothness loss, and asserts that the loss falls, that every conv layer gets a
non-zero gradient, and that the gradient equals the one from an out-of-place
reference implementation of the same warp.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import SpatialTransformer, SpatialTransformerReference

torch.manual_seed(0)
torch.set_num_threads(1)

H = W = 16


class FlowNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(2, 8, 3, padding=1)
        self.c2 = nn.Conv2d(8, 8, 3, padding=1)
        self.flow = nn.Conv2d(8, 2, 3, padding=1)
        nn.init.normal_(self.flow.weight, std=1e-3)
        nn.init.zeros_(self.flow.bias)

    def forward(self, moving, fixed):
        x = F.leaky_relu(self.c1(torch.cat([moving, fixed], 1)), 0.2)
        x = F.leaky_relu(self.c2(x), 0.2)
        return self.flow(x)


def smoothness(flow):
    dy = flow[:, :, 1:, :] - flow[:, :, :-1, :]
    dx = flow[:, :, :, 1:] - flow[:, :, :, :-1]
    return (dx ** 2).mean() + (dy ** 2).mean()


def registration_loss(net, stn, moving, fixed):
    flow = net(moving, fixed)
    moved = stn(moving, flow)
    return F.mse_loss(moved, fixed) + 0.01 * smoothness(flow)


base = F.avg_pool2d(torch.rand(1, 1, H + 4, W + 4), 5, stride=1)
fixed = base
moving = torch.roll(base, shifts=1, dims=3)

net = FlowNet()
stn = SpatialTransformer((H, W))
ref = SpatialTransformerReference((H, W))

# gradients through the in-place rescale match the out-of-place reference
net.zero_grad()
registration_loss(net, stn, moving, fixed).backward()
g_inplace = [p.grad.clone() for p in net.parameters()]
net.zero_grad()
registration_loss(net, ref, moving, fixed).backward()
g_ref = [p.grad.clone() for p in net.parameters()]
assert all(torch.allclose(a, b, atol=1e-7) for a, b in zip(g_inplace, g_ref))
assert all(g.abs().sum() > 0 for g in g_inplace)

opt = torch.optim.Adam(net.parameters(), lr=3e-3)
first = None
for step in range(60):
    opt.zero_grad()
    loss = registration_loss(net, stn, moving, fixed)
    loss.backward()
    opt.step()
    if first is None:
        first = loss.item()
last = registration_loss(net, stn, moving, fixed).item()
assert last < 0.8 * first, (first, last)

print("r02 ok")
