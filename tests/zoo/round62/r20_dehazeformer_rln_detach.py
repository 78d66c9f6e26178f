"""
expect: none
dynamic: dismiss
source: https://github.com/IDKiro/DehazeFormer/blob/d8260200bed93fb1520681a5136a63bb41eea18d/models/dehazeformer.py

DehazeFormer replaces LayerNorm with a "revised" LayerNorm (RLN): it
normalises the feature map, and additionally turns the removed mean and
standard deviation into a per-channel rescale and rebias (two 1x1 convs,
meta1/meta2) that are re-applied after the attention block, so the block
does not lose the global brightness statistics a hazy image depends on. With
`detach_grad=True` the statistics are detached before entering meta1/meta2.
That stop-gradient is deliberate: it keeps the re-injection path from pushing
gradients back into the statistics of the input, while meta1 and meta2
themselves are still trained through their weights (their input is a
constant, their parameters are not). The model predicts K and B and dehazes
as K*x - B + x. The asserts check that meta1/meta2 receive non-zero gradients
and change, that the detached branch contributes no gradient to the input
through the statistics (compared with detach_grad=False), and that the
dehazing loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class RLN(nn.Module):
    """Revised LayerNorm"""

    def __init__(self, dim, eps=1e-5, detach_grad=False):
        super().__init__()
        self.eps = eps
        self.detach_grad = detach_grad
        self.weight = nn.Parameter(torch.ones((1, dim, 1, 1)))
        self.bias = nn.Parameter(torch.zeros((1, dim, 1, 1)))
        self.meta1 = nn.Conv2d(1, dim, 1)
        self.meta2 = nn.Conv2d(1, dim, 1)
        nn.init.trunc_normal_(self.meta1.weight, std=0.02)
        nn.init.constant_(self.meta1.bias, 1)
        nn.init.trunc_normal_(self.meta2.weight, std=0.02)
        nn.init.constant_(self.meta2.bias, 0)

    def forward(self, x):
        mean = torch.mean(x, dim=(1, 2, 3), keepdim=True)
        std = torch.sqrt((x - mean).pow(2).mean(dim=(1, 2, 3), keepdim=True) + self.eps)
        normalized = (x - mean) / std
        if self.detach_grad:
            rescale, rebias = self.meta1(std.detach()), self.meta2(mean.detach())
        else:
            rescale, rebias = self.meta1(std), self.meta2(mean)
        return normalized * self.weight + self.bias, rescale, rebias


class Block(nn.Module):
    def __init__(self, dim, detach_grad):
        super().__init__()
        self.norm = RLN(dim, detach_grad=detach_grad)
        self.mix = nn.Sequential(nn.Conv2d(dim, dim, 3, padding=1, groups=dim), nn.Conv2d(dim, dim, 1))

    def forward(self, x):
        identity = x
        x, rescale, rebias = self.norm(x)
        x = self.mix(x)
        x = x * rescale + rebias
        return identity + x


class TinyDehazeFormer(nn.Module):
    def __init__(self, dim=8, detach_grad=True):
        super().__init__()
        self.embed = nn.Conv2d(3, dim, 3, padding=1)
        self.block = Block(dim, detach_grad)
        self.unembed = nn.Conv2d(dim, 4, 3, padding=1)

    def forward(self, x):
        feat = self.unembed(self.block(self.embed(x)))
        K, B = torch.split(feat, (1, 3), dim=1)
        return K * x - B + x


def hazy_batch(gen, n=4):
    clear = torch.rand(n, 3, 16, 16, generator=gen)
    t = 0.3 + 0.6 * torch.rand(n, 1, 1, 1, generator=gen)
    A = 0.7 + 0.3 * torch.rand(n, 1, 1, 1, generator=gen)
    return clear * t + A * (1 - t), clear


def stats_path_grad(detach_grad):
    """Gradient reaching a feature map only through RLN's rescale/rebias."""
    torch.manual_seed(0)
    rln = RLN(4, detach_grad=detach_grad)
    x = torch.randn(2, 4, 5, 5, requires_grad=True)
    _, rescale, rebias = rln(x)
    (rescale.sum() + rebias.sum()).backward()
    return x.grad


def main():
    assert stats_path_grad(detach_grad=True) is None
    assert stats_path_grad(detach_grad=False).abs().sum() > 0

    model = TinyDehazeFormer(detach_grad=True)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    meta0 = [p.detach().clone() for p in (model.block.norm.meta1.weight, model.block.norm.meta2.weight)]
    gen = torch.Generator().manual_seed(11)
    losses = []
    for step in range(80):
        hazy, clear = hazy_batch(gen)
        opt.zero_grad()
        loss = F.l1_loss(model(hazy), clear)
        loss.backward()
        if step == 0:
            assert model.block.norm.meta1.weight.grad.abs().sum() > 0
            assert model.block.norm.meta2.weight.grad.abs().sum() > 0
        opt.step()
        losses.append(loss.item())
    meta1 = model.block.norm.meta1.weight
    meta2 = model.block.norm.meta2.weight
    assert not torch.equal(meta0[0], meta1) and not torch.equal(meta0[1], meta2)
    assert sum(losses[-5:]) < sum(losses[:5])
    print(f"meta1/meta2 trained through detached statistics; L1 {losses[0]:.3f} -> {losses[-1]:.3f}")


if __name__ == "__main__":
    main()
