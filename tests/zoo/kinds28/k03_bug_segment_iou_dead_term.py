"""
expect: GL001 40
dynamic: confirm
source: kinds check 28, kind 2

Temporal action localisation: a head predicts (start, end) offsets for clips plus a
quality score. The loss helper detaches the 1-D segment IoU, which is right for the
quality target, but then also uses the detached IoU as the localisation term
(1 - iou), so the segment regressor gets no gradient at all.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ClipHead(nn.Module):
    def __init__(self, d=12):
        super().__init__()
        self.trunk = nn.Linear(d, 16)
        self.seg = nn.Linear(16, 2)
        self.quality = nn.Linear(16, 1)

    def forward(self, clips):
        h = F.relu(self.trunk(clips))
        se = self.seg(h)
        start = se[:, 0]
        end = start + F.softplus(se[:, 1])
        return start, end, self.quality(h).squeeze(-1)


def segment_iou(s1, e1, s2, e2):
    inter = (torch.minimum(e1, e2) - torch.maximum(s1, s2)).clamp(min=0)
    union = (e1 - s1) + (e2 - s2) - inter
    return inter / union.clamp(min=1e-6)


def localisation_loss(start, end, qual, gt_s, gt_e):
    iou = segment_iou(start, end, gt_s, gt_e).detach()
    quality_term = F.binary_cross_entropy_with_logits(qual, iou)
    loc_term = (1 - iou).mean()
    return quality_term + loc_term


head = ClipHead()
clips = torch.randn(32, 12)
gt_s = torch.rand(32)
gt_e = gt_s + 0.5 + torch.rand(32)
start, end, qual = head(clips)
# make sure the predicted segments overlap the ground truth, so the IoU is informative
start, end = start * 0.1 + gt_s, end * 0.1 + gt_e
loss = localisation_loss(start, end, qual, gt_s, gt_e)
loss.backward()

assert head.seg.weight.grad is None or head.seg.weight.grad.abs().sum() == 0, \
    "segment regressor should get no gradient"
assert head.quality.weight.grad.abs().sum() > 0
print("ok: the (1 - iou) term is dead, segment regressor is not trained")
