"""
expect: GL005 31
dynamic: confirm
source: kinds check 54, kind 6

Attention-gate logging: unbatch() returns a squeeze(0) view when the batch has one
element. It is called on gate.detach(), where gate is a sigmoid output saved for
backward; clamping the result in place bumps the shared version counter and backward
raises.
"""
import torch
import torch.nn as nn


def unbatch(t):
    if t.shape[0] == 1:
        return t.squeeze(0)
    return t.clone()


torch.manual_seed(0)
proj = nn.Linear(10, 10)
values = nn.Linear(10, 10)
x = torch.randn(1, 10)   # single-sample inference-style batch during fine-tuning

gate = torch.sigmoid(proj(x))
out = gate * values(x)
loss = out.pow(2).sum()

heat = unbatch(gate.detach())
heat.clamp_(0.05, 0.95)
print("gate heat range", heat.min().item(), heat.max().item())

try:
    loss.backward()
    raised = False
except RuntimeError as e:
    raised = "inplace" in str(e)
assert raised, "expected in-place autograd error"
print("ok: backward raised")
