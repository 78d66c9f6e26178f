"""
expect: GL005 28
dynamic: confirm
source: kinds check 29, kind 3

A 1-D speech denoiser builds its body from a nested block() helper:
relu, an optional shared convolution, then an optional residual add.
The last call asks for no_conv=True together with a skip, so `h += skip`
edits the relu output that relu saved for its backward.
"""
import torch
import torch.nn as nn


class Denoiser(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.inp = nn.Conv1d(1, c, 5, padding=2)
        self.mid = nn.Conv1d(c, c, 3, padding=1)
        self.out = nn.Conv1d(c, 1, 1)

    def forward(self, wav):
        def block(h, skip=None, no_conv=False):
            h = torch.relu(h)
            if not no_conv:
                h = self.mid(h)
            if skip is not None:
                h += skip
            return h

        h0 = self.inp(wav)
        h1 = block(h0)
        h2 = block(h1, skip=h0)
        h3 = block(h2, skip=h1, no_conv=True)
        return self.out(h3)


torch.manual_seed(0)
net = Denoiser(8)
noisy = torch.randn(2, 1, 64)
clean = torch.randn(2, 1, 64)
loss = ((net(noisy) - clean) ** 2).mean()
try:
    loss.backward()
    raise AssertionError("expected backward to fail")
except RuntimeError as e:
    msg = str(e)
assert "modified by an inplace operation" in msg, msg
print("ok:", msg.splitlines()[0][:90])
