"""
expect: none
dynamic: dismiss
source: https://github.com/sshaoshuai/PointRCNN/issues/153

PointRCNN runs its proposal-target layer under torch.no_grad(); a user asked why and
noted the layer is full of in-place writes. It is fine: that layer only produces
labels (which proposal is foreground, what offset to regress to), and labels need no
gradient. The refinement head is trained on its own predictions for the proposals.
The asserts show every head parameter gets a gradient and the loss drops, while the
targets carry no graph.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from targets import assign_proposal_targets

torch.manual_seed(0)
torch.set_num_threads(1)


class RefineHead(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.point_mlp = nn.Sequential(nn.Linear(3, d), nn.ReLU(), nn.Linear(d, d))
        self.cls = nn.Linear(d + 7, 1)
        self.reg = nn.Linear(d + 7, 7)

    def forward(self, points, proposals):
        feat = self.point_mlp(points).max(dim=0).values
        z = torch.cat([feat.expand(proposals.shape[0], -1), proposals], dim=1)
        return self.cls(z).squeeze(1), self.reg(z)


points = torch.randn(128, 3)
gt = torch.randn(4, 7)
head = RefineHead()
opt = torch.optim.Adam(head.parameters(), lr=1e-2)
losses = []
for step in range(30):
    proposals = gt.repeat(8, 1) + 0.4 * torch.randn(32, 7)
    cls_t, reg_t = assign_proposal_targets(proposals, gt)
    assert not cls_t.requires_grad and not reg_t.requires_grad
    logit, reg = head(points, proposals)
    loss = F.binary_cross_entropy_with_logits(logit, cls_t) + F.smooth_l1_loss(reg, reg_t)
    opt.zero_grad()
    loss.backward()
    if step == 0:
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in head.parameters())
    opt.step()
    losses.append(loss.item())
assert losses[-1] < losses[0], losses
print("ok", losses[0], losses[-1])
