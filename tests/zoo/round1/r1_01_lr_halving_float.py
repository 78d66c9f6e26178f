"""expect: none
dynamic: dismiss
source: https://neuralnetworklexicon.com/training-and-optimization/learning-rate-schedules

A hand-written plateau schedule: the step size `eta` is a Python float halved in place (`eta *= 0.5`) and copied into the optimizer's param groups, and a running loss built from `.item()` is decayed in place. None of these numbers ever goes back into a tensor that is trained, so there is nothing for an autograd linter to report.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.2)
x = torch.randn(64, 4)
y = x.sum(dim=1, keepdim=True)

eta = 0.2
best = float("inf")
stale = 0
running = 0.0
first = None
for epoch in range(60):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    cur = loss.item()
    first = cur if first is None else first
    running *= 0.9
    running += 0.1 * cur
    if cur < best - 1e-4:
        best = cur
        stale = 0
    else:
        stale += 1
    if stale >= 2 or epoch % 20 == 19:
        eta *= 0.5
        for group in opt.param_groups:
            group["lr"] = eta
        stale = 0

print(f"loss {first:.3f} -> {cur:.3f}, smoothed {running:.3f}, final eta {eta:.4f}")
assert cur < first
