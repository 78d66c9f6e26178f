"""expect: none
dynamic: none
source: https://github.com/rosinality/vq-vae-2-pytorch/issues/60

In vq-vae-2-pytorch's ResBlock the first ReLU was inplace=True, so it overwrote the block
input and the skip connection added post-activation values; the author fixed it in
ef5f67c by making that ReLU out-of-place.  This is the fixed encoder: the remaining
in-place ReLUs and out += input only modify convolution outputs, which no backward saved.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResBlock(nn.Module):
    def __init__(self, in_channel, channel):
        super().__init__()
        self.conv = nn.Sequential(
            nn.ReLU(),
            nn.Conv2d(in_channel, channel, 3, padding=1),
            nn.ReLU(inplace=True),
            nn.Conv2d(channel, in_channel, 1),
        )

    def forward(self, input):
        out = self.conv(input)
        out += input
        return out


class Encoder(nn.Module):
    def __init__(self, in_channel, channel, n_res_block, n_res_channel):
        super().__init__()
        blocks = [
            nn.Conv2d(in_channel, channel // 2, 4, stride=2, padding=1),
            nn.ReLU(inplace=True),
            nn.Conv2d(channel // 2, channel, 4, stride=2, padding=1),
            nn.ReLU(inplace=True),
            nn.Conv2d(channel, channel, 3, padding=1),
        ]
        for _ in range(n_res_block):
            blocks.append(ResBlock(channel, n_res_channel))
        blocks.append(nn.ReLU(inplace=True))
        self.blocks = nn.Sequential(*blocks)

    def forward(self, input):
        return self.blocks(input)


if __name__ == "__main__":
    torch.manual_seed(0)
    block = ResBlock(8, 4)
    inp = torch.randn(1, 8, 5, 5)
    out = block(inp)
    assert torch.allclose(out - block.conv(inp), inp)   # skip carries the pre-activation input
    assert (inp < 0).any()

    enc = Encoder(3, 16, n_res_block=2, n_res_channel=8)
    x = torch.randn(2, 3, 16, 16)
    loss = F.mse_loss(enc(x), torch.zeros(2, 16, 4, 4))
    loss.backward()
    assert all(p.grad is not None for p in enc.parameters())
    print("encoder backward ok, every parameter has a gradient")
