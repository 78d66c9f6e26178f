"""
expect: GL001 43
dynamic: confirm
source: kinds check 26, kind 4

A GRU load forecaster adds a smoothness penalty on its hidden trajectory via
loss_fn(pred, target, reg_input, weight). The call passes states.detach() as
reg_input and a module-level constant as weight, so the penalty is a constant
and the GRU gets exactly the gradient of the MSE alone.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

SMOOTH_WEIGHT = 0.5


class Forecaster(nn.Module):
    def __init__(self, hidden=12):
        super().__init__()
        self.rnn = nn.GRU(1, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def forward(self, series):
        states, _ = self.rnn(series)
        return self.out(states[:, -1]), states


def penalty(states):
    return (states[:, 1:] - states[:, :-1]).pow(2).mean()


def loss_fn(pred, target, reg_input, weight):
    main = F.mse_loss(pred, target)
    return main + weight * penalty(reg_input)


torch.manual_seed(0)
model = Forecaster()
series = torch.randn(8, 15, 1).cumsum(dim=1)
target = series[:, -1] + 0.1 * torch.randn(8, 1)
pred, states = model(series)
loss = loss_fn(pred, target, states.detach(), SMOOTH_WEIGHT)
loss.backward()
grads = [p.grad.clone() for p in model.rnn.parameters()]

model.zero_grad()
pred, states = model(series)
F.mse_loss(pred, target).backward()
for a, p in zip(grads, model.rnn.parameters()):
    assert torch.allclose(a, p.grad)

model.zero_grad()
pred, states = model(series)
loss_fn(pred, target, states, SMOOTH_WEIGHT).backward()
assert any(not torch.allclose(a, p.grad) for a, p in zip(grads, model.rnn.parameters()))
print("ok: smoothness penalty is dead")
