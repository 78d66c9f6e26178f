"""
expect: GL005 50
dynamic: confirm
source: https://github.com/open-mmlab/mmdetection/issues/7933

Training a Cascade Mask R-CNN config with `num_convs=2` in the RPN head crashed with the
"modified by an inplace operation" error. With two convs the head's rpn_conv becomes a
stack of conv+ReLU(inplace) modules, and forward then applies `F.relu(x, inplace=True)`
once more to a tensor that the last ReLU already saved for its backward; with one plain
conv the same line is harmless. The suggested fix was `inplace=False`. The asserts show
the one-conv head trains, the two-conv head raises in backward, and the out-of-place
ReLU trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)


class ConvModule(nn.Module):
    """conv + activation, activation in place as in the detection toolbox default."""

    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.act(self.conv(x))


class RPNHead(nn.Module):
    def __init__(self, in_ch=8, feat_ch=8, num_anchors=3, num_convs=1):
        super().__init__()
        if num_convs > 1:
            convs = [ConvModule(in_ch if i == 0 else feat_ch, feat_ch) for i in range(num_convs)]
            self.rpn_conv = nn.Sequential(*convs)
        else:
            self.rpn_conv = nn.Conv2d(in_ch, feat_ch, 3, padding=1)
        self.rpn_cls = nn.Conv2d(feat_ch, num_anchors, 1)
        self.rpn_reg = nn.Conv2d(feat_ch, num_anchors * 4, 1)

    def forward_single(self, x):
        x = self.rpn_conv(x)
        x = self.activate(x)
        return self.rpn_cls(x), self.rpn_reg(x)

    def activate(self, x):
        return F.relu(x, inplace=True)


class FixedRPNHead(RPNHead):
    def activate(self, x):
        return F.relu(x, inplace=False)


def rpn_step(head):
    feat = torch.randn(2, 8, 10, 10)
    cls, reg = head.forward_single(feat)
    labels = (torch.rand_like(cls) > 0.7).float()
    loss = F.binary_cross_entropy_with_logits(cls, labels) + F.smooth_l1_loss(reg, torch.zeros_like(reg))
    loss.backward()
    return head


torch.manual_seed(0)
assert rpn_step(RPNHead(num_convs=1)).rpn_cls.weight.grad is not None

try:
    rpn_step(RPNHead(num_convs=2))
    raise AssertionError("double in-place ReLU should break backward")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err

head = rpn_step(FixedRPNHead(num_convs=2))
assert head.rpn_conv[0].conv.weight.grad is not None
print("p13 ok: in-place F.relu on an output the previous ReLU saved for backward")
