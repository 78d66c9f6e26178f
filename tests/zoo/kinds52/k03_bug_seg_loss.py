"""
expect: GL005 28
dynamic: confirm
source: kinds check 52, kind 2

A segmentation loss that adds cross-entropy and a soft-Dice term. The Dice
helper maps the ignore label 255 to class 0 by writing into the target tensor
in place, after cross-entropy already saved that target for its backward, so
total.backward() raises "modified by an inplace operation".
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CEDiceLoss(nn.Module):
    def __init__(self, n_classes, ignore=255, dice_w=0.5):
        super().__init__()
        self.n_classes = n_classes
        self.ignore = ignore
        self.dice_w = dice_w

    def forward(self, logits, target):
        ce = F.cross_entropy(logits, target, ignore_index=self.ignore)
        return ce + self.dice_w * self._soft_dice(logits, target)

    def _soft_dice(self, logits, target):
        target[target == self.ignore] = 0
        probs = logits.softmax(dim=1)
        onehot = F.one_hot(target, self.n_classes).permute(0, 3, 1, 2).float()
        inter = (probs * onehot).sum(dim=(2, 3))
        union = probs.sum(dim=(2, 3)) + onehot.sum(dim=(2, 3))
        return 1 - (2 * inter / (union + 1e-6)).mean()


torch.manual_seed(2)
logits = torch.randn(2, 4, 8, 8, requires_grad=True)
mask = torch.randint(0, 4, (2, 8, 8))
mask[:, :2, :2] = 255
crit = CEDiceLoss(n_classes=4)
total = crit(logits, mask)
try:
    total.backward()
except RuntimeError as e:
    assert "modified by an inplace operation" in str(e), e
else:
    raise AssertionError("expected in-place RuntimeError")
print("ok: in-place edit of the saved target breaks backward")
