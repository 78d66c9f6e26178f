"""
expect: GL005 33
dynamic: confirm
source: kinds check 24, kind 4 (written for this check)

The lesion-segmentation net merges its skip connection with a static helper that does
`x += skip` on its argument, and forward hands it the output of `torch.relu`, which ReLU's
backward saved. The assert shows the Dice loss's backward raises "modified by an inplace
operation"; a separate class whose helper returns `x + skip` backpropagates fine.
"""
import torch
import torch.nn as nn

torch.set_num_threads(1)
torch.manual_seed(0)


def soft_dice_loss(logits, mask, eps=1.0):
    prob = torch.sigmoid(logits)
    inter = (prob * mask).sum((1, 2, 3))
    return 1 - ((2 * inter + eps) / (prob.sum((1, 2, 3)) + mask.sum((1, 2, 3)) + eps)).mean()


class LesionSegNet(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.stem = nn.Conv2d(1, c, 3, padding=1)
        self.mid = nn.Conv2d(c, c, 3, padding=1)
        self.head = nn.Conv2d(c, 1, 1)

    @staticmethod
    def merge_skip(x, skip):
        x += skip
        return x

    def forward(self, scan):
        skip = torch.relu(self.stem(scan))
        h = torch.relu(self.mid(skip))
        h = self.merge_skip(h, skip)
        return self.head(h)


class LesionSegNetOutOfPlace(LesionSegNet):
    def forward(self, scan):
        skip = torch.relu(self.stem(scan))
        h = torch.relu(self.mid(skip))
        return self.head(h + skip)


scans = torch.randn(2, 1, 16, 16)
masks = (torch.rand(2, 1, 16, 16) > 0.7).float()
net = LesionSegNet()
loss = soft_dice_loss(net(scans), masks)
try:
    loss.backward()
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err
else:
    raise AssertionError("backward should have raised")

fixed = LesionSegNetOutOfPlace()
soft_dice_loss(fixed(scans), masks).backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in fixed.parameters())
print("bug confirmed: in-place skip merge on a saved ReLU output breaks backward")
