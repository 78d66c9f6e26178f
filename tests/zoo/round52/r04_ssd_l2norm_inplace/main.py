"""
expect: GL005 l2norm.py:14
dynamic: confirm
source: https://github.com/lzx1413/PytorchSSD/issues/72

A cut-down SSD: a VGG-like stem whose conv4_3 feature map is L2-normalised per
location and rescaled by a learned per-channel weight before the first
localisation/confidence heads. The L2Norm layer divides its input in place
(x /= norm). That input is the ReLU output, which both ReLU's backward and the
x.pow(2) that produced the norm saved for backward, so the in-place division bumps
its version and loss.backward() raises "one of the variables needed for gradient
computation has been modified by an inplace operation", the error in the report
(fixed there by writing x = x / norm). The asserts catch that RuntimeError for the
in-place layer and check that the out-of-place layer trains the stem and the scale.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from l2norm import L2Norm, L2NormOutOfPlace

torch.manual_seed(0)
torch.set_num_threads(1)

N_ANCHORS, N_CLASSES = 4, 5


class TinySSD(nn.Module):
    def __init__(self, norm_cls):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
        )
        self.l2norm = norm_cls(32)
        self.loc = nn.Conv2d(32, N_ANCHORS * 4, 3, padding=1)
        self.conf = nn.Conv2d(32, N_ANCHORS * N_CLASSES, 3, padding=1)

    def forward(self, img):
        f = self.l2norm(self.stem(img))
        b = img.shape[0]
        loc = self.loc(f).permute(0, 2, 3, 1).reshape(b, -1, 4)
        conf = self.conf(f).permute(0, 2, 3, 1).reshape(b, -1, N_CLASSES)
        return loc, conf


def multibox_loss(loc, conf, gt_loc, gt_cls):
    pos = gt_cls > 0
    loss_l = F.smooth_l1_loss(loc[pos], gt_loc[pos])
    loss_c = F.cross_entropy(conf.reshape(-1, N_CLASSES), gt_cls.reshape(-1))
    return loss_l + loss_c


img = torch.randn(2, 3, 8, 8)
n_priors = 8 * 8 * N_ANCHORS
gt_loc = torch.randn(2, n_priors, 4)
gt_cls = torch.randint(0, N_CLASSES, (2, n_priors))

net = TinySSD(L2Norm)
loc, conf = net(img)
try:
    multibox_loss(loc, conf, gt_loc, gt_cls).backward()
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised
assert net.stem[0].weight.grad is None

torch.manual_seed(0)
net_ok = TinySSD(L2NormOutOfPlace)
opt = torch.optim.SGD(net_ok.parameters(), lr=0.05)
losses = []
for _ in range(15):
    opt.zero_grad()
    loc, conf = net_ok(img)
    loss = multibox_loss(loc, conf, gt_loc, gt_cls)
    loss.backward()
    opt.step()
    losses.append(loss.item())
assert net_ok.stem[0].weight.grad.abs().sum() > 0
assert net_ok.l2norm.weight.grad.abs().sum() > 0
assert losses[-1] < losses[0]

print("in-place L2Norm: backward raised (%s...)" % raised[:40])
print("out-of-place L2Norm: loss %.3f -> %.3f" % (losses[0], losses[-1]))
