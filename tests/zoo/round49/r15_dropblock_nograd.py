"""
expect: GL001 44
dynamic: confirm
source: https://github.com/miguelvr/dropblock/issues/41

A small segmentation network regularized with DropBlock between its encoder and its decoder. In the linked issue a
user asked whether the DropBlock forward can run under torch.no_grad() since "it does not require gradient
tracking", and the maintainer answered that doing so on part of the graph breaks it. Here the block's forward is
wrapped in no_grad: the random block mask indeed needs no gradient, but the masked activation `x * mask` is also
computed there, so the block's output is a constant and the encoder (whose only route to the loss is through the
block) gets no gradient at all while the decoder still trains, so nothing errors. The asserts show the encoder's
grad is None and its weights never move, and that computing only the mask under no_grad trains the encoder.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class DropBlock2D(nn.Module):
    def __init__(self, drop_prob=0.2, block_size=3, mask_only_no_grad=False):
        super().__init__()
        self.drop_prob = drop_prob
        self.block_size = block_size
        self.mask_only_no_grad = mask_only_no_grad

    def block_mask(self, x):
        gamma = self.drop_prob / (self.block_size ** 2)
        seeds = (torch.rand(x.shape[0], *x.shape[2:]) < gamma).float()
        covered = F.max_pool2d(seeds[:, None], self.block_size, stride=1, padding=self.block_size // 2)
        return 1 - covered.squeeze(1)

    def forward(self, x):
        if not self.training or self.drop_prob == 0.0:
            return x
        if self.mask_only_no_grad:
            with torch.no_grad():
                mask = self.block_mask(x)
            return x * mask[:, None] * (mask.numel() / mask.sum())
        with torch.no_grad():
            mask = self.block_mask(x)
            out = x * mask[:, None] * (mask.numel() / mask.sum())
        return out


class SegNet(nn.Module):
    def __init__(self, num_classes=4, mask_only_no_grad=False):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1))
        self.dropblock = DropBlock2D(mask_only_no_grad=mask_only_no_grad)
        self.decoder = nn.Conv2d(8, num_classes, 1)

    def forward(self, x):
        return self.decoder(torch.relu(self.dropblock(self.encoder(x))))


def train(net, steps=5):
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    img = torch.randn(2, 3, 12, 12)
    lab = torch.randint(0, 4, (2, 12, 12))
    start = [p.detach().clone() for p in net.encoder.parameters()]
    for _ in range(steps):
        loss = F.cross_entropy(net(img), lab)
        opt.zero_grad()
        loss.backward()
        opt.step()
    moved = any(not torch.equal(a, b) for a, b in zip(start, net.encoder.parameters()))
    return moved


net = SegNet().train()
moved = train(net)
assert all(p.grad is None for p in net.encoder.parameters())
assert net.decoder.weight.grad is not None
assert not moved

net_ok = SegNet(mask_only_no_grad=True).train()
assert train(net_ok)
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in net_ok.encoder.parameters())
print("dropblock under no_grad: encoder untouched; mask-only no_grad: encoder trains")
