"""expect: none
source: https://github.com/AggMan96/RK-Net/issues/9

A keypoint attention module zeroes the border of its sigmoid attention map
when "polish" is on. Writing the zeros straight into the sigmoid output raised
the in-place error from the thread; the fix suggested there, used here, is to
take `att = att.clone()` first, so the edits land on a copy that no backward
node saved and the attention convolution still gets its gradient.
"""
import torch
import torch.nn as nn


class KeypointAttention(nn.Module):
    def __init__(self, ch, polish=True):
        super().__init__()
        self.conv = nn.Conv2d(ch, 1, 3, padding=1)
        self.polish = polish

    def attention_map(self, x):
        return torch.sigmoid(self.conv(x))

    def forward(self, x):
        att = self.attention_map(x)
        if self.polish:
            att = att.clone()
            att[:, :, :, 0] = 0
            att[:, :, :, -1] = 0
            att[:, :, 0, :] = 0
            att[:, :, -1, :] = 0
        return x * att


if __name__ == "__main__":
    torch.manual_seed(0)
    module = KeypointAttention(3)
    module(torch.randn(2, 3, 8, 8)).pow(2).mean().backward()
    assert module.conv.weight.grad.abs().sum() > 0
    print("ok: clone before the border edits keeps backward working")
