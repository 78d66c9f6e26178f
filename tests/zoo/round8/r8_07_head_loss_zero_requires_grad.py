"""
expect: GL003 33
dynamic: confirm
source: https://github.com/RangiLyu/nanodet/issues/7

A detection head loss in the style of nanodet's GFL head. When a batch has no
positive anchors (avg_factor <= 0), the computed classification loss -- which
still has a graph and a useful gradient pushing negatives down -- is thrown
away and replaced by fresh zero tensors. Backward then failed with "element 0
of tensors does not require grad", and the accepted "fix" switches
requires_grad on for those zeros. backward() now runs, but nothing upstream
trains on such batches: the head's parameters get no gradient at all.
Asserted: .grad is None for the head, while the discarded loss had a non-zero
gradient for it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
NUM_CLASSES = 3


def head_losses(cls_logits, box_pred, labels, box_targets):
    pos = labels >= 0
    cls_target = F.one_hot(labels.clamp(min=0), NUM_CLASSES).float() * pos[:, None]
    loss_cls = F.binary_cross_entropy_with_logits(cls_logits, cls_target, reduction="sum")
    avg_factor = float(pos.sum())
    if avg_factor <= 0:
        loss_cls = cls_logits.new_tensor(0.0)
        loss_box = cls_logits.new_tensor(0.0)
        for zero in (loss_cls, loss_box):
            zero.requires_grad_(True)
    else:
        loss_cls = loss_cls / avg_factor
        loss_box = F.smooth_l1_loss(box_pred[pos], box_targets[pos])
    return loss_cls + loss_box


head = nn.Linear(5, NUM_CLASSES + 4)
opt = torch.optim.SGD(head.parameters(), lr=0.1)
feats = torch.randn(6, 5)
labels = torch.full((6,), -1)  # a batch with background anchors only
box_targets = torch.randn(6, 4)

opt.zero_grad()
out = head(feats)
loss = head_losses(out[:, :NUM_CLASSES], out[:, NUM_CLASSES:], labels, box_targets)
loss.backward()  # runs thanks to the switch...
before = head.weight.detach().clone()
opt.step()
assert head.weight.grad is None and head.bias.grad is None, "head got a gradient"
assert torch.equal(head.weight, before), "head moved"

# ...but the loss that was discarded did carry a training signal for the head
out = head(feats)
true_cls = F.binary_cross_entropy_with_logits(out[:, :NUM_CLASSES], torch.zeros(6, NUM_CLASSES), reduction="sum")
(g,) = torch.autograd.grad(true_cls, head.weight)
assert g.abs().sum() > 0
print("OK: zero loss with requires_grad switched on trains nothing")
