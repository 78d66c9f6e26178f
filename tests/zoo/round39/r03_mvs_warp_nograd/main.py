"""
expect: none
dynamic: dismiss
source: https://github.com/WHU-GPCV/SatMVS/issues/7

The SatMVS issue asks why the MVS homography warping runs under torch.no_grad().
The answer given was that the warp is a fixed geometric structure with no
learnable parameters. Only the sampling grid (cameras and depth hypotheses) is
built under no_grad. grid_sample of the learned source features runs outside it,
so the feature network still gets gradients through the cost volume. The asserts
check that the feature CNN and the cost regularizer both get nonzero gradients, and
that the depth loss goes down over a few steps.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from warping import homo_warp

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyMVS(nn.Module):
    def __init__(self, c=4):
        super().__init__()
        self.feat = nn.Conv2d(3, c, 3, padding=1)
        self.reg = nn.Conv3d(1, 1, 3, padding=1)

    def forward(self, ref_img, src_img, ref_proj, src_proj, depth_values):
        ref_f, src_f = self.feat(ref_img), self.feat(src_img)
        d = depth_values.shape[1]
        warped = homo_warp(src_f, src_proj, ref_proj, depth_values)
        ref_vol = ref_f.unsqueeze(2).expand(-1, -1, d, -1, -1)
        cost = ((ref_vol - warped) ** 2).mean(1, keepdim=True)  # variance-like cost
        prob = torch.softmax(-self.reg(cost).squeeze(1), dim=1)  # [B, D, H, W]
        return (prob * depth_values.view(-1, d, 1, 1)).sum(1)


def make_proj(tx):
    k = torch.tensor([[4.0, 0, 4], [0, 4.0, 4], [0, 0, 1]])
    rt = torch.cat([torch.eye(3), torch.tensor([[tx], [0.0], [0.0]])], 1)
    return (k @ rt).unsqueeze(0)


model = TinyMVS()
opt = torch.optim.Adam(model.parameters(), lr=5e-2)
ref_img, src_img = torch.rand(1, 3, 8, 8), torch.rand(1, 3, 8, 8)
ref_proj, src_proj = make_proj(0.0), make_proj(0.2)
depth_values = torch.linspace(1.0, 4.0, 6).unsqueeze(0)
gt = torch.full((1, 8, 8), 2.5)
losses = []
for _ in range(15):
    opt.zero_grad()
    depth = model(ref_img, src_img, ref_proj, src_proj, depth_values)
    loss = F.smooth_l1_loss(depth, gt)
    loss.backward()
    assert model.feat.weight.grad.abs().sum() > 0
    assert model.reg.weight.grad.abs().sum() > 0
    opt.step()
    losses.append(loss.item())
assert losses[-1] < losses[0]
print("ok: no_grad only covers the sampling grid; features still train")
