"""
expect: none
dynamic: dismiss
source: kind C

A one-step time-series forecaster keeps its recurrent state in a global that a free function
rebuilds from itself on every call; the function detaches the global at the start of each call and
uses a plain backward() before stepping the optimizer. A hook on each call's input projection shows
every backward reaches only its own call, and the asserts show the weights change.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(8)

proj = nn.Linear(2, 6)
mix = nn.Linear(6, 6, bias=False)
predict = nn.Linear(6, 2)
opt = torch.optim.Adam([*proj.parameters(), *mix.parameters(), *predict.parameters()], lr=1e-2)

state = torch.zeros(1, 6)
calls_reached = []


def forecast_step(x_t, x_next):
    global state
    state = state.detach()
    p = proj(x_t)
    p.register_hook(lambda g: calls_reached.append(1))
    state = torch.tanh(p + mix(state))
    loss = F.mse_loss(predict(state), x_next)
    start = len(calls_reached)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return len(calls_reached) - start


series = torch.cumsum(torch.randn(9, 1, 2), dim=0)
w0 = mix.weight.detach().clone()
counts = [forecast_step(series[t], series[t + 1]) for t in range(8)]
print("calls reached per backward:", counts)
assert counts == [1] * 8
assert not torch.equal(w0, mix.weight.detach())
print("ok")
