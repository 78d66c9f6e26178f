"""
expect: none
dynamic: dismiss
source: kinds check 11, kind 4

A style-transfer style block for images: StopGradInstanceNorm computes the
per-channel spatial mean and standard deviation of its input feature map,
detaches those statistics, and normalises the ATTACHED input with them before a
learned affine modulation (stop-gradient normalisation as used in style mixing).
The detach only stops gradient flowing through the statistics; the output still
depends on the input x itself, so the convolution before the norm is trained.
Every parameter (conv, norm affine, head) receives a non-zero gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class StopGradInstanceNorm(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.gamma = nn.Parameter(torch.ones(1, channels, 1, 1))
        self.beta = nn.Parameter(torch.zeros(1, channels, 1, 1))

    def forward(self, x):
        mu = x.mean(dim=(2, 3), keepdim=True).detach()
        sd = x.std(dim=(2, 3), keepdim=True).detach() + 1e-5
        return (x - mu) / sd * self.gamma + self.beta


class StyleNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.norm = StopGradInstanceNorm(8)
        self.head = nn.Linear(8, 4)

    def forward(self, img):
        f = self.norm(F.relu(self.conv(img)))
        return self.head(f.mean(dim=(2, 3)) + f.pow(2).mean(dim=(2, 3)))


def main():
    torch.manual_seed(6)
    net = StyleNet()
    imgs = torch.rand(5, 3, 12, 12)
    styles = torch.randint(0, 4, (5,))
    loss = F.cross_entropy(net(imgs), styles)
    loss.backward()
    for name, p in net.named_parameters():
        assert p.grad is not None and p.grad.abs().sum() > 0, name
    print("k04 ok: conv before the detached-stat norm is trained")


if __name__ == "__main__":
    main()
