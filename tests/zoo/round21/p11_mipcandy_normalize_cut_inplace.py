"""
expect: GL005 37
expect: GL005 39
dynamic: confirm
source: https://github.com/ProjectNeura/MIPCandy/issues/156

MIPCandy (medical image processing) reported that its Normalize module's "cut" step,
x[x < left] = left and x[x > right] = right, edits x in place, which breaks gradient
computation when x is part of a graph. This program uses such a Normalize module on the
sigmoid output of a small 3-D segmentation head (sigmoid saves its output for backward)
and trains with a soft Dice loss. The asserts show backward raises the "modified by an
inplace operation" error, and that an out-of-place clamp trains normally.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class SegHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv3d(1, 4, 3, padding=1), nn.ReLU(), nn.Conv3d(4, 1, 1))

    def forward(self, vol):
        return torch.sigmoid(self.conv(vol))


class Normalize(nn.Module):
    def __init__(self, left=None, right=None):
        super().__init__()
        self.left, self.right = left, right

    def cut(self, x):
        if self.left is not None:
            x[x < self.left] = self.left
        if self.right is not None:
            x[x > self.right] = self.right
        return x

    def forward(self, x):
        x = self.cut(x)
        return (x - self.left) / (self.right - self.left)


class NormalizeClamp(Normalize):
    def cut(self, x):
        return x.clamp(self.left, self.right)


def soft_dice_loss(prob, mask, eps=1.0):
    inter = (prob * mask).sum()
    return 1 - (2 * inter + eps) / (prob.sum() + mask.sum() + eps)


vol = torch.randn(2, 1, 8, 8, 8)
mask = (torch.rand(2, 1, 8, 8, 8) > 0.7).float()

net = SegHead()
norm = Normalize(left=0.05, right=0.95)
loss = soft_dice_loss(norm(net(vol)), mask)
try:
    loss.backward()
    raise AssertionError("expected the in-place cut to break backward")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err)

net_fixed = SegHead()
net_fixed.load_state_dict(net.state_dict())
opt = torch.optim.Adam(net_fixed.parameters(), lr=1e-2)
losses = []
for _ in range(15):
    opt.zero_grad()
    loss = soft_dice_loss(NormalizeClamp(0.05, 0.95)(net_fixed(vol)), mask)
    loss.backward()
    opt.step()
    losses.append(loss.item())
assert losses[-1] < losses[0], "out-of-place clamp trains"
print("ok: in-place cut breaks backward; clamp version loss", round(losses[0], 3), "->", round(losses[-1], 3))
