"""
expect: none
dynamic: dismiss
source: https://github.com/alibaba/cascade-stereo/issues/9

A two-stage coarse-to-fine depth network in the CasMVSNet style: stage 1 regresses depth from a wide set of depth
hypotheses, and stage 2 builds a narrow set of hypotheses centred on the stage-1 depth. The stage-1 depth is
detached before it is upsampled into the stage-2 hypotheses, on purpose: each stage is supervised by its own depth
loss and the authors confirmed in the linked issue that detaching gives better results than letting the fine
stage push gradients into the coarse one. The depth range is also read out of the data as Python floats, which is
fine because it is not a learned quantity. The asserts show that both stages' regularizers receive gradients
from the summed loss, that the stage-2 loss alone leaves stage 1 untouched as designed, and that the loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class StageRegularizer(nn.Module):
    """Turns per-hypothesis matching features into a probability volume over depth hypotheses."""

    def __init__(self, feat=4):
        super().__init__()
        self.net = nn.Sequential(nn.Conv3d(feat, 4, 3, padding=1), nn.ReLU(), nn.Conv3d(4, 1, 3, padding=1))

    def forward(self, cost):
        return F.softmax(self.net(cost).squeeze(1), dim=1)


class CascadeDepth(nn.Module):
    def __init__(self, ndepths=(8, 4), feat=4):
        super().__init__()
        self.ndepths = ndepths
        self.feature = nn.Conv2d(3, feat, 3, padding=1)
        self.regs = nn.ModuleList([StageRegularizer(feat) for _ in ndepths])

    def cost_volume(self, feats, hyps):
        # matching feature per hypothesis: features modulated by the normalized hypothesis depth
        return feats.unsqueeze(2) * (1 + hyps.unsqueeze(1))

    def forward(self, img, depth_values):
        depth_min = float(depth_values[0, 0])
        depth_max = float(depth_values[0, -1])
        interval = (depth_max - depth_min) / depth_values.shape[1]
        feats = self.feature(img)
        B, _, H, W = feats.shape
        outputs, depth = [], None
        for stage, nd in enumerate(self.ndepths):
            if depth is None:
                hyps = torch.linspace(depth_min, depth_max, nd).view(1, nd, 1, 1).expand(B, nd, H, W)
            else:
                cur_depth = depth.detach()
                offsets = (torch.arange(nd) - nd / 2).view(1, nd, 1, 1) * interval
                hyps = (cur_depth.unsqueeze(1) + offsets).clamp(depth_min, depth_max)
            prob = self.regs[stage](self.cost_volume(feats, hyps / depth_max))
            depth = (prob * hyps).sum(1)
            outputs.append(depth)
        return outputs


model = CascadeDepth()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
img = torch.randn(2, 3, 8, 8)
depth_values = torch.linspace(1.0, 5.0, 16).unsqueeze(0)
gt = 1.0 + 4.0 * torch.rand(2, 8, 8)

outs = model(img, depth_values)
opt.zero_grad()
F.smooth_l1_loss(outs[1], gt).backward()
assert all(p.grad is None for p in model.regs[0].parameters())  # fine stage does not steer the coarse one
assert all(p.grad is not None for p in model.regs[1].parameters())

losses = []
for _ in range(30):
    outs = model(img, depth_values)
    loss = sum(F.smooth_l1_loss(d, gt) for d in outs)
    opt.zero_grad()
    loss.backward()
    for reg in model.regs:
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in reg.parameters())
    opt.step()
    losses.append(loss.item())
assert losses[-1] < losses[0]
print("both stages train through their own losses: %.3f -> %.3f" % (losses[0], losses[-1]))
