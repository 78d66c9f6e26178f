"""
expect: none
dynamic: dismiss
source: kinds check 51, kind 1

Super-resolution network trained with L1 plus a perceptual loss over a frozen
feature extractor. The perceptual loss detaches only the high-resolution target;
the upscaled output keeps its history, so the perceptual term trains the network.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from perceptual import PerceptualLoss

torch.manual_seed(1)


class Upscaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Conv2d(3, 12, 3, padding=1)
        self.shuffle = nn.PixelShuffle(2)

    def forward(self, x):
        return self.shuffle(self.body(x))


vgg_like = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1))
vgg_like.requires_grad_(False)
net = Upscaler()
perc = PerceptualLoss(vgg_like, weight=0.1)
opt = torch.optim.SGD(net.parameters(), lr=0.01)

for it in range(3):
    lowres = torch.rand(2, 3, 8, 8)
    hires = torch.rand(2, 3, 16, 16)
    up = net(lowres)
    p_term = perc(up, hires)
    assert p_term.grad_fn is not None
    loss = F.l1_loss(up, hires) + p_term
    opt.zero_grad()
    loss.backward()
    opt.step()

net.zero_grad()
perc(net(lowres), hires).backward()
assert net.body.weight.grad is not None and net.body.weight.grad.abs().sum() > 0
assert all(p.grad is None for p in vgg_like.parameters())
print("ok: perceptual term trains the upscaler")
