"""
expect: none
dynamic: dismiss
source: https://github.com/researchmm/TTSR/issues/28

A super-resolution trainer in the style of TTSR: a small upsampling network is
trained with an L1 reconstruction loss plus a perceptual loss computed by a frozen
VGG-like extractor (loss.py). The extractor's parameters have requires_grad=False,
the target features are computed under torch.no_grad() from hr.detach(), and a user
asked whether this stops the perceptual loss from training anything. It does not:
freezing the extractor only keeps its own weights fixed; the SR output's features
are still recorded, so the perceptual term sends gradient back into the SR network,
and the detach/no_grad only affect the constant target. The asserts show the
perceptual term alone gives every SR parameter a gradient, the extractor stays
fixed, and both losses fall during training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from loss import PerceptualLoss

torch.manual_seed(0)
torch.set_num_threads(1)


class TinySR(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Conv2d(3, 16, 3, padding=1)
        self.body = nn.Sequential(nn.ReLU(), nn.Conv2d(16, 12, 3, padding=1))
        self.shuffle = nn.PixelShuffle(2)

    def forward(self, lr):
        return torch.tanh(self.shuffle(self.body(self.head(lr))))


sr_net = TinySR()
per_loss = PerceptualLoss()
opt = torch.optim.Adam(sr_net.parameters(), lr=2e-3)
hr = torch.tanh(torch.randn(4, 3, 16, 16))
lr = F.avg_pool2d(hr, 2)

sr = sr_net(lr)
grads = torch.autograd.grad(per_loss(sr, hr), list(sr_net.parameters()))
assert all(g.abs().sum() > 0 for g in grads), "the perceptual term must reach the SR network"

vgg_before = [p.detach().clone() for p in per_loss.parameters()]
with torch.no_grad():
    sr = sr_net(lr)
    first = (F.l1_loss(sr, hr).item(), per_loss(sr, hr).item())
for _ in range(150):
    sr = sr_net(lr)
    loss = F.l1_loss(sr, hr) + 0.5 * per_loss(sr, hr)
    opt.zero_grad()
    loss.backward()
    opt.step()
with torch.no_grad():
    sr = sr_net(lr)
    last = (F.l1_loss(sr, hr).item(), per_loss(sr, hr).item())

assert last[0] < first[0] and last[1] < first[1], (first, last)
assert all(torch.equal(b, p) for b, p in zip(vgg_before, per_loss.parameters()))
assert all(p.grad is None for p in per_loss.parameters())
print(f"SR net trains through the frozen extractor: l1 {first[0]:.3f}->{last[0]:.3f}, "
      f"perceptual {first[1]:.4f}->{last[1]:.4f}")
