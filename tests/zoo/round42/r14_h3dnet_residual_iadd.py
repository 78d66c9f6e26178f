"""
expect: GL005 46
dynamic: confirm
source: https://github.com/zaiweizhang/H3DNet/issues/29

The refinement head of a 3D object detector (H3DNet style) re-scores object proposals from
features pooled over matched surface and line primitives. Its first refinement layer is
conv -> batch norm -> ReLU, and the original proposal features are then added back with
`net += original_feature`. F.relu saves its output to compute its backward, and the in-place
add bumps that output's version, so the first backward raises "one of the variables needed
for gradient computation has been modified by an inplace operation" (the linked report; the
maintainers switched to `net = net + original_feature`). The asserts catch that error on the
original head and show the out-of-place variant trains and lowers the proposal loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class ProposalRefine(nn.Module):
    def __init__(self, feat=32, n_out=12, inplace_residual=True):
        super().__init__()
        self.inplace_residual = inplace_residual
        self.conv_surface = nn.Conv1d(feat, feat, 1)
        self.conv_line = nn.Conv1d(feat, feat, 1)
        self.conv_refine1 = nn.Conv1d(2 * feat, feat, 1)
        self.bn_refine1 = nn.BatchNorm1d(feat)
        self.conv_refine2 = nn.Conv1d(feat, feat, 1)
        self.bn_refine2 = nn.BatchNorm1d(feat)
        self.conv_refine3 = nn.Conv1d(feat, n_out, 1)

    def forward(self, surface_feat, line_feat, original_feature):
        # surface_feat: (B, C, 6, P) and line_feat: (B, C, 12, P) primitive features per proposal
        b, c, _, p = surface_feat.shape
        s = F.relu(self.conv_surface(surface_feat.flatten(2))).view(b, c, 6, p)
        l = F.relu(self.conv_line(line_feat.flatten(2))).view(b, c, 12, p)
        s_pool = F.max_pool2d(s, (6, 1)).squeeze(2)
        l_pool = F.max_pool2d(l, (12, 1)).squeeze(2)
        combine = torch.cat((s_pool, l_pool), dim=1)

        net = F.relu(self.bn_refine1(self.conv_refine1(combine)))
        if self.inplace_residual:
            net += original_feature  # residual feature
        else:
            net = net + original_feature
        net = F.relu(self.bn_refine2(self.conv_refine2(net)))
        return self.conv_refine3(net)  # objectness + box residuals per proposal


def batch():
    B, C, P = 4, 32, 16
    return (torch.randn(B, C, 6, P), torch.randn(B, C, 12, P),
            torch.randn(B, C, P, requires_grad=True), torch.randn(B, 12, P))


surf, line, orig, target = batch()
head = ProposalRefine(inplace_residual=True)
try:
    F.mse_loss(head(surf, line, orig), target).backward()
    raise AssertionError("expected the in-place residual add to break backward")
except RuntimeError as e:
    assert "modified by an inplace operation" in str(e)

fixed = ProposalRefine(inplace_residual=False)
opt = torch.optim.Adam(fixed.parameters(), lr=1e-2)
losses = []
for _ in range(30):
    loss = F.mse_loss(fixed(surf, line, orig), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
assert losses[-1] < 0.8 * losses[0]
assert orig.grad is not None and orig.grad.abs().sum() > 0
print(f"in-place residual add raises in backward; out-of-place head trains {losses[0]:.3f} -> {losses[-1]:.3f}")
