"""
expect: GL001 mmd.py:22
dynamic: confirm
source: https://github.com/jindongwang/transferlearning/issues/204

The report: in a DDC / Deep CORAL domain-adaptation example, the MMD transfer
loss reduced its kernel blocks inside `torch.no_grad()` (left over from
saving memory), so `transfer_loss` is a constant; the maintainer confirmed the
no_grad should not be there. Training still runs on the classification loss,
but the adaptation term moves nothing. The asserts show the total loss's
gradient on the backbone is identical with and without the MMD term (any
weight), while the same MMD without no_grad gives the backbone a gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from mmd import MMDLoss

torch.manual_seed(0)
torch.set_num_threads(1)


class DDCNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())
        self.bottleneck = nn.Linear(16, 8)
        self.head = nn.Linear(8, 3)
        self.mmd = MMDLoss()

    def forward(self, xs, xt):
        fs = self.bottleneck(self.backbone(xs))
        ft = self.bottleneck(self.backbone(xt))
        return self.head(fs), self.mmd(fs, ft)


def backbone_grad(net, xs, ys, xt, lam):
    net.zero_grad()
    logits, transfer = net(xs, xt)
    (F.cross_entropy(logits, ys) + lam * transfer).backward()
    return torch.cat([p.grad.flatten() for p in net.backbone.parameters()]), transfer


net = DDCNet()
xs, ys, xt = torch.randn(16, 10), torch.randint(0, 3, (16,)), torch.randn(16, 10) * 2 + 1

g0, _ = backbone_grad(net, xs, ys, xt, lam=0.0)
g10, transfer = backbone_grad(net, xs, ys, xt, lam=10.0)
assert transfer.item() > 1e-3          # the term has a value...
assert not transfer.requires_grad      # ...but no graph
assert torch.allclose(g0, g10)         # its weight changes nothing

# fixed variant: same kernels, reduced with autograd on
mmd = MMDLoss()
fs = net.bottleneck(net.backbone(xs))
ft = net.bottleneck(net.backbone(xt))
k, b = mmd.kernels(fs, ft), xs.size(0)
fixed = k[:b, :b].mean() + k[b:, b:].mean() - k[:b, b:].mean() - k[b:, :b].mean()
g = torch.autograd.grad(fixed, list(net.backbone.parameters()))
assert sum(x.abs().sum().item() for x in g) > 1e-4
print("ok: MMD under no_grad is a constant", transfer.item())
