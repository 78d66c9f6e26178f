"""
expect: none
dynamic: dismiss
source: https://github.com/Megvii-BaseDetection/BEVDepth/issues/149

The report asks why the predicted depth distribution is not detached before it
is multiplied with the context features in the lift step, so that only the
depth loss would train the depth branch. The code is fine as written: the
detection loss is meant to reach the depth branch too, and the only detach is
a copy kept for logging. The asserts show the detection loss alone gives the
depth branch a gradient, the depth loss trains it as well, and the logged copy
is never part of the loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

D_BINS, C_OUT = 6, 4


class LiftNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Conv2d(3, 8, 3, padding=1)
        self.depth_net = nn.Conv2d(8, D_BINS + C_OUT, 1)
        self.last_depth = None

    def forward(self, img):
        feat = F.relu(self.backbone(img))
        out = self.depth_net(feat)
        depth = out[:, :D_BINS].softmax(dim=1)
        context = out[:, D_BINS:D_BINS + C_OUT]
        self.last_depth = depth.detach()  # for the depth visualiser only
        frustum = depth.unsqueeze(1) * context.unsqueeze(2)  # B, C, D, H, W
        bev = frustum.sum(dim=3)  # collapse image rows: B, C, D, W (a tiny BEV)
        return bev, depth


class DetHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.cls = nn.Conv2d(C_OUT, 2, 1)

    def forward(self, bev):
        return self.cls(bev)


def depth_loss(depth, gt_bins):
    return F.nll_loss(torch.log(depth + 1e-6), gt_bins)


lift, head = LiftNet(), DetHead()
opt = torch.optim.SGD(list(lift.parameters()) + list(head.parameters()), lr=0.05)
img = torch.randn(2, 3, 8, 8)
gt_bins = torch.randint(0, D_BINS, (2, 8, 8))
det_target = torch.randint(0, 2, (2, D_BINS, 8))

# detection loss alone reaches the depth-bin channels of depth_net
bev, depth = lift(img)
det = F.cross_entropy(head(bev), det_target)
det.backward()
g = lift.depth_net.weight.grad
assert g[:D_BINS].abs().sum() > 0
assert lift.backbone.weight.grad.abs().sum() > 0
opt.zero_grad()

losses = []
for step in range(20):
    bev, depth = lift(img)
    loss = F.cross_entropy(head(bev), det_target) + depth_loss(depth, gt_bins)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
    assert lift.last_depth.requires_grad is False

assert losses[-1] < losses[0]
print("ok", losses[0], losses[-1])
