"""
expect: GL005 resa.py:30
dynamic: confirm
source: https://github.com/voldemortX/pytorch-auto-drive/issues/81

A small lane-segmentation net in the style of RESA: a backbone, a 1x1 channel reducer that ends in a
ReLU, then a feature-shift aggregator that repeatedly adds shifted, convolved copies of the map onto
itself, trained under autocast mixed precision. The aggregator accumulates with `y.add_(...)`, and the
first `y` is the reducer's ReLU output, which autograd saved to compute the ReLU gradient. Every step
bumps that tensor's version, so backward fails with "modified by an inplace operation" (in the report:
"output 0 of ReluBackward0 is at version 20; expected version 0" with --mixed-precision). The asserts
show the in-place trainer raising that error and the out-of-place accumulation training normally and
giving the reducer a gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from resa import ChannelReducer, ShiftAggregator


class LaneNet(nn.Module):
    def __init__(self, inplace_agg):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU())
        self.reducer = ChannelReducer(16, 8)
        self.aggregator = ShiftAggregator(8, steps=2, inplace=inplace_agg)
        self.head = nn.Conv2d(8, 3, 1)

    def forward(self, img):
        feats = self.reducer(self.backbone(img))
        feats = self.aggregator(feats)
        logits = self.head(feats)
        return F.interpolate(logits, size=img.shape[-2:], mode="bilinear", align_corners=False)


def train_step(model, opt, img, mask):
    opt.zero_grad()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = model(img)
    loss = F.cross_entropy(logits.float(), mask)
    loss.backward()
    opt.step()
    return loss.item()


def build(inplace_agg):
    torch.manual_seed(0)
    model = LaneNet(inplace_agg)
    return model, torch.optim.SGD(model.parameters(), lr=0.05)


torch.manual_seed(0)
torch.set_num_threads(1)
img = torch.randn(2, 3, 16, 32)
mask = torch.randint(0, 3, (2, 16, 32))

model, opt = build(inplace_agg=True)
try:
    train_step(model, opt, img, mask)
    raised = False
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised, "the in-place aggregation should break the reducer's ReLU backward"

model, opt = build(inplace_agg=False)
losses = [train_step(model, opt, img, mask) for _ in range(15)]
assert model.reducer.conv.weight.grad is not None
assert model.reducer.conv.weight.grad.abs().sum() > 0
assert losses[-1] < losses[0]
print("in-place aggregation raised; out-of-place loss %.3f -> %.3f" % (losses[0], losses[-1]))
