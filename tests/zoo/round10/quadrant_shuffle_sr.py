"""
expect: GL005 33
dynamic: error
source: https://github.com/Jee-King/TSAN/issues/3

TSAN's CSB block splits a feature map into four spatial quadrants, mixes them
with a 1x1 convolution, and writes the result back with `out = x` followed by
`out[:, :, ...] = ...`; issue #3 reports the in-place RuntimeError and the fix
`out = x.clone()`. Here QuadrantMixer does the same in its forward and is nested
inside a super-resolution block where the same feature map also feeds a
convolution branch. That convolution saved its input for backward; the slice
assignment in the nested module writes into that very tensor (out aliases x),
bumping its version, so backward raises "modified by an inplace operation".
The program asserts the error and that the clone() version trains.
"""
import torch
import torch.nn as nn


class QuadrantMixer(nn.Module):
    def __init__(self, channels, copy_input=False):
        super().__init__()
        self.mix = nn.Conv2d(4 * channels, 4 * channels, 1, bias=False)
        self.copy_input = copy_input

    def forward(self, x):
        c, h, w = x.shape[1], x.shape[2] // 2, x.shape[3] // 2
        quads = [(slice(0, h), slice(0, w)), (slice(h, None), slice(0, w)),
                 (slice(0, h), slice(w, None)), (slice(h, None), slice(w, None))]
        mixed = self.mix(torch.cat([x[:, :, r, s] for r, s in quads], dim=1))
        out = x.clone() if self.copy_input else x
        for k, (r, s) in enumerate(quads):
            out[:, :, r, s] = mixed[:, k * c:(k + 1) * c]
        return out


class SRBlock(nn.Module):
    def __init__(self, channels=8, copy_input=False):
        super().__init__()
        self.head = nn.Conv2d(3, channels, 3, padding=1)
        self.local = nn.Conv2d(channels, channels, 3, padding=1)
        self.mixer = QuadrantMixer(channels, copy_input)
        self.tail = nn.Conv2d(channels, 3, 3, padding=1)

    def forward(self, lr_img):
        feat = self.head(lr_img)
        local = self.local(feat)
        mixed = self.mixer(feat)
        return self.tail(local + mixed)


def main():
    torch.manual_seed(0)
    lr_img, hr_img = torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16)

    block = SRBlock()
    loss = (block(lr_img) - hr_img).abs().mean()
    try:
        loss.backward()
        raise AssertionError("expected the in-place modification error")
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err)

    fixed = SRBlock(copy_input=True)
    (fixed(lr_img) - hr_img).abs().mean().backward()
    assert all(p.grad is not None for p in fixed.parameters())
    print("quadrant write-back into a saved tensor raises: confirmed")


if __name__ == "__main__":
    main()
