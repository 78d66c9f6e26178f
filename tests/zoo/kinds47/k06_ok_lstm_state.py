"""
expect: none
dynamic: dismiss
source: kinds check 47, kind 3

A motion-capture encoder masks its nn.LSTM output sequence out of place
(out * keep) and only clamps the returned cell state in place before using the
final hidden state. Backward runs and the LSTM weights get gradients.
"""
import torch
import torch.nn as nn

torch.manual_seed(5)
lstm = nn.LSTM(6, 12, num_layers=2)
proj = nn.Linear(24, 3)
frames = torch.randn(9, 4, 6)
keep = (torch.rand(9, 4, 1) > 0.2).float()

out, (h, c) = lstm(frames)
out = out * keep
c.clamp_(-1.0, 1.0)
h_last = h[-1].clone()
h_last.mul_(0.5)
pooled = out.mean(0)
pred = proj(torch.cat([pooled, h_last], dim=-1))
pred.pow(2).sum().backward()
assert lstm.weight_ih_l0.grad is not None and lstm.weight_ih_l0.grad.abs().sum() > 0
print("k06 ok: out-of-place output mask, in-place only on state")
