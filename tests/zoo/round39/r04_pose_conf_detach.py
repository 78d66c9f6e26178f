"""
expect: none
dynamic: dismiss
source: https://github.com/lolrudy/GPV_Pose/issues/7

GPV-Pose predicts rotation axes with confidences from a point cloud. The network
returns the confidences detached for the geometric "prop" loss, and the issue
asks why. The author's answer: the confidence is already supervised by its own
loss, and the prop loss should only shape the pose, not the confidence. This
look-alike returns conf.detach() as a weight inside a loss object. The weight
is meant to be constant there. The confidence head is trained by its own term, and
the rotation head is trained by the weighted prop term. The asserts check both
heads get gradients and that the prop term alone leaves the confidence head alone.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class PointPoseNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 32))
        self.rot_head = nn.Linear(32, 3)
        self.conf_head = nn.Linear(32, 1)

    def forward(self, pts):
        feat = self.mlp(pts).max(dim=1).values
        axis = F.normalize(self.rot_head(feat), dim=-1)
        conf = torch.sigmoid(self.conf_head(feat)).squeeze(-1)
        return {"axis": axis, "conf": conf, "axis_f": conf.detach()}


class PoseLoss:
    def __init__(self, w_prop=1.0):
        self.w_prop = w_prop

    def conf_loss(self, out, gt_axis):
        err = (1 - (out["axis"] * gt_axis).sum(-1)).detach()
        target = torch.exp(-10 * err)
        return F.l1_loss(out["conf"], target)

    def prop_loss(self, out, pts):
        # points should lie near the plane orthogonal to the axis; weight by confidence
        dist = (pts * out["axis"].unsqueeze(1)).sum(-1).abs().mean(-1)
        return (out["axis_f"] * dist).mean()

    def __call__(self, out, gt_axis, pts):
        rot = (1 - (out["axis"] * gt_axis).sum(-1)).mean()
        return rot + self.conf_loss(out, gt_axis) + self.w_prop * self.prop_loss(out, pts)


net = PointPoseNet()
crit = PoseLoss()
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
pts = torch.randn(4, 64, 3) * torch.tensor([1.0, 1.0, 0.05])
gt_axis = torch.tensor([0.0, 0.0, 1.0]).expand(4, 3)
losses = []
for _ in range(30):
    opt.zero_grad()
    out = net(pts)
    loss = crit(out, gt_axis, pts)
    loss.backward()
    assert net.conf_head.weight.grad.abs().sum() > 0
    assert net.rot_head.weight.grad.abs().sum() > 0
    opt.step()
    losses.append(loss.item())
assert losses[-1] < losses[0]

# the prop term trains the rotation head but (by design) not the confidence head
net.zero_grad()
out = net(pts)
crit.prop_loss(out, pts).backward()
assert net.rot_head.weight.grad.abs().sum() > 0
assert net.conf_head.weight.grad is None or net.conf_head.weight.grad.abs().sum() == 0
print("ok: detached confidence weight is intentional; both heads still train")
