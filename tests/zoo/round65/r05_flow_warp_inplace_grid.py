"""
expect: none
dynamic: dismiss
source: https://github.com/duduheihei/notes/blob/master/%E4%B8%93%E4%B8%9A%E7%9F%A5%E8%AF%86/%E5%85%89%E6%B5%81/warp%E6%93%8D%E4%BD%9C.md

Optical flow (PWC-Net style backward warping used in an unsupervised photometric loss).
The warp helper normalises the sampling grid by assigning into slices of `vgrid`
(`vgrid[:, 0] = ...`) and binarises the validity mask in place
(`mask[mask < 0.9999] = 0`, `mask[mask > 0] = 1`), all on tensors that depend on the
predicted flow. These look like in-place edits of values autograd needs, but nothing has
saved them yet: the add that produced `vgrid` keeps no operands, the slice writes happen
before grid_sample reads the grid, and grid_sample's backward keeps its input and grid,
not its output, so editing `mask` afterwards is legal. The asserts show backward runs,
the flow network's first layer gets non-zero gradients and the photometric loss drops.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def warp(x, flo):
    """warp an image/tensor (im2) back to im1, according to the optical flow"""
    B, C, H, W = x.size()
    xx = torch.arange(0, W).view(1, -1).repeat(H, 1)
    yy = torch.arange(0, H).view(-1, 1).repeat(1, W)
    xx = xx.view(1, 1, H, W).repeat(B, 1, 1, 1)
    yy = yy.view(1, 1, H, W).repeat(B, 1, 1, 1)
    grid = torch.cat((xx, yy), 1).float()
    vgrid = grid + flo
    # scale grid to [-1, 1]
    vgrid[:, 0, :, :] = 2.0 * vgrid[:, 0, :, :].clone() / max(W - 1, 1) - 1.0
    vgrid[:, 1, :, :] = 2.0 * vgrid[:, 1, :, :].clone() / max(H - 1, 1) - 1.0
    vgrid = vgrid.permute(0, 2, 3, 1)
    output = F.grid_sample(x, vgrid, align_corners=True)
    mask = torch.ones(x.size())
    mask = F.grid_sample(mask, vgrid, align_corners=True)
    mask[mask < 0.9999] = 0
    mask[mask > 0] = 1
    return output * mask


class TinyFlowNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(2, 16, 5, padding=2)
        self.conv2 = nn.Conv2d(16, 16, 5, padding=2)
        self.flow = nn.Conv2d(16, 2, 5, padding=2)

    def forward(self, im1, im2):
        h = F.relu(self.conv1(torch.cat([im1, im2], 1)))
        h = F.relu(self.conv2(h))
        return self.flow(h)


def smooth_images(b, h, w):
    img = torch.rand(b, 1, h + 8, w + 8)
    k = torch.ones(1, 1, 5, 5) / 25.0
    for _ in range(3):
        img = F.conv2d(img, k, padding=2)
    return img


def photometric_loss(net, im1, im2):
    flow = net(im1, im2)
    im2_warped = warp(im2, flow)
    valid = (im2_warped != 0).float()
    return ((im2_warped - im1).abs() * valid).sum() / valid.sum().clamp(min=1.0)


net = TinyFlowNet()
opt = torch.optim.Adam(net.parameters(), lr=3e-3)
base = smooth_images(8, 24, 24)
im1 = base[:, :, 4:28, 4:28]
im2 = base[:, :, 4:28, 3:27]  # content moves one pixel to the right

losses = []
for it in range(80):
    loss = photometric_loss(net, im1, im2)
    opt.zero_grad()
    loss.backward()
    if it == 0:
        g = net.conv1.weight.grad
        assert g is not None and g.abs().sum() > 0
    opt.step()
    losses.append(loss.item())
assert losses[-1] < 0.6 * losses[0], (losses[0], losses[-1])
print("photometric loss %.4f -> %.4f" % (losses[0], losses[-1]))
