"""
expect: none
dynamic: dismiss
source: kind B

A GRU cell rolls over a short sequence of weather readings; hidden states are
kept in a Python list made by repetition ([zeros] * (T + 1)) and each slot is
rebound to the new state, then the list is stacked into a forecasting loss.
Rebinding list slots edits no tensor, so backward works. Asserts: backward
succeeds, the cell gets gradients and its weights change after the step.
"""
import torch
import torch.nn as nn

torch.manual_seed(3)

T, B, H = 6, 5, 12
cell = nn.GRUCell(3, H)
readout = nn.Linear(H, 1)
opt = torch.optim.SGD(list(cell.parameters()) + list(readout.parameters()), lr=0.1)

readings = torch.randn(T, B, 3)
target = readings[..., :1].cumsum(0)

for epoch in range(3):
    opt.zero_grad()
    hidden = [torch.zeros(B, H)] * (T + 1)
    for t in range(T):
        hidden[t + 1] = cell(readings[t], hidden[t])
    seq = torch.stack(hidden[1:])
    loss = ((readout(seq) - target) ** 2).mean()
    before = cell.weight_hh.detach().clone()
    loss.backward()
    assert cell.weight_hh.grad is not None and cell.weight_hh.grad.abs().sum() > 0
    opt.step()
    assert not torch.equal(before, cell.weight_hh)

print("ok: list-slot filling trains normally")
