"""
expect: none
dynamic: dismiss
source: kinds check 47, kind 4

A physics rollout model accumulates per-step prediction error in a running total
started at 0 and backpropagates that total directly; torch.tensor(total.item())
is only used to record the value for a log. The model trains.
"""
import torch
import torch.nn as nn

torch.manual_seed(7)
stepper = nn.Linear(4, 4)
opt = torch.optim.SGD(stepper.parameters(), lr=0.02)
A = torch.eye(4) * 0.9
state0 = torch.randn(16, 4)
history = []
for epoch in range(40):
    opt.zero_grad()
    total = 0
    s_true, s_pred = state0, state0
    for t in range(5):
        s_true = s_true @ A
        s_pred = stepper(s_pred)
        total += ((s_pred - s_true) ** 2).mean()
    (total / 5).backward()
    opt.step()
    history.append(torch.tensor(total.item() / 5))
assert history[-1] < history[0]
print("k08 ok: total backpropagated as is", float(history[0]), float(history[-1]))
