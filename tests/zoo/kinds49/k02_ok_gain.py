"""
expect: none
dynamic: dismiss
source: kinds check 49, kind 1

An audio gain model predicts per-channel spectra and a gain column; the gain
column scales the other channels. The scaling is written out of place
(`spec_scaled = spec[:, 1:] * spec[:, :1]`), so nothing saved for backward is
overwritten, and the gradient matches an independent functional reference.
"""
import torch
import torch.nn as nn

torch.manual_seed(1)
net = nn.Linear(8, 5)
frames = torch.randn(20, 8)
clean = torch.randn(20, 4)


def apply_gain(spec):
    gain = torch.sigmoid(spec[:, :1])
    return spec[:, 1:] * gain


out = apply_gain(net(frames))
loss = ((out - clean) ** 2).mean()
loss.backward()
g = net.weight.grad.clone()

w = net.weight.detach().clone().requires_grad_(True)
s = frames @ w.t() + net.bias.detach()
ref = ((s[:, 1:] * torch.sigmoid(s[:, :1]) - clean) ** 2).mean()
(gw,) = torch.autograd.grad(ref, w)
assert torch.allclose(g, gw, atol=1e-6)
print("ok: gradient matches reference")
