"""
expect: none
dynamic: dismiss
source: https://github.com/meteorshowers/X-StereoLab/issues/18

Self-supervised stereo: a small network predicts a disparity map from a left/right pair and
is trained with a photometric loss between the left image and the right image warped by that
disparity. The warp builds a pixel grid, subtracts the disparity from the x coordinate by
slice assignment, and rescales both coordinates to [-1, 1] with more in-place slice writes
before grid_sample. Those in-place writes only touch the grid while it is being built: no
recorded operation has saved it yet (subtraction, scaling and slice copies save nothing), so
autograd stays consistent. The asserts compare the gradients with an out-of-place warp (they
match) and show the photometric loss falling during training.
"""
import torch
import torch.nn.functional as F
from torch import nn


def warp(x, disp):
    """Warp the right image/feature map to the left view with a horizontal disparity."""
    B, C, H, W = x.size()
    xx = torch.arange(0, W).view(1, -1).repeat(H, 1)
    yy = torch.arange(0, H).view(-1, 1).repeat(1, W)
    xx = xx.view(1, 1, H, W).repeat(B, 1, 1, 1)
    yy = yy.view(1, 1, H, W).repeat(B, 1, 1, 1)
    grid = torch.cat((xx, yy), 1).float()
    vgrid = grid
    vgrid[:, :1, :, :] = vgrid[:, :1, :, :] - disp
    vgrid[:, 0, :, :] = 2.0 * vgrid[:, 0, :, :] / max(W - 1, 1) - 1.0
    vgrid[:, 1, :, :] = 2.0 * vgrid[:, 1, :, :] / max(H - 1, 1) - 1.0
    vgrid = vgrid.permute(0, 2, 3, 1)
    return F.grid_sample(x, vgrid, align_corners=True)


def warp_reference(x, disp):
    B, C, H, W = x.size()
    xx = torch.arange(W).float().view(1, 1, 1, W).expand(B, 1, H, W)
    yy = torch.arange(H).float().view(1, 1, H, 1).expand(B, 1, H, W)
    gx = 2.0 * (xx - disp) / max(W - 1, 1) - 1.0
    gy = 2.0 * yy / max(H - 1, 1) - 1.0
    return F.grid_sample(x, torch.cat([gx, gy], 1).permute(0, 2, 3, 1), align_corners=True)


class DisparityNet(nn.Module):
    def __init__(self, max_disp=4.0):
        super().__init__()
        self.max_disp = max_disp
        self.body = nn.Sequential(nn.Conv2d(6, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 3, padding=1))

    def forward(self, left, right):
        return self.max_disp * torch.sigmoid(self.body(torch.cat([left, right], 1)))


torch.manual_seed(0)
torch.set_num_threads(1)
right = torch.rand(2, 3, 12, 16)
true_disp = torch.full((2, 1, 12, 16), 2.0)
left = warp_reference(right, true_disp)

net = DisparityNet()
disp = net(left, right)
loss_a = (warp(right, disp) - left).abs().mean()
grads_a = torch.autograd.grad(loss_a, list(net.parameters()))
disp = net(left, right)
loss_b = (warp_reference(right, disp) - left).abs().mean()
grads_b = torch.autograd.grad(loss_b, list(net.parameters()))
assert torch.allclose(loss_a, loss_b)
assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(grads_a, grads_b))
assert all(g.abs().sum() > 0 for g in grads_a)

optimizer = torch.optim.Adam(net.parameters(), lr=1e-2)
losses = []
for _ in range(60):
    loss = (warp(right, net(left, right)) - left).abs().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
assert losses[-1] < 0.7 * losses[0]
print("photometric loss", round(losses[0], 4), "->", round(losses[-1], 4), "| grads match out-of-place warp")
