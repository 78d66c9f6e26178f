"""
expect: GL005 39
dynamic: confirm
source: kind B

A recurrent smoother over sensor frames stores its hidden states in a tensor
preallocated with torch.zeros and writes each step's state into a slice of it;
the cell's matmul saved the previous slice, which the next write modifies, so
backward raises a RuntimeError about an inplace operation. Asserts: that error
is caught, and a fixed version using a Python list trains (weights change).
"""
import torch
import torch.nn as nn

torch.manual_seed(5)

steps, batch, width = 7, 3, 8


class Smoother(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(2, width)
        self.rec = nn.Linear(width, width, bias=False)

    def forward(self, frame, prev):
        return torch.tanh(self.inp(frame) + self.rec(prev))


net = Smoother()
head = nn.Linear(width, 2)
opt = torch.optim.SGD(list(net.parameters()) + list(head.parameters()), lr=0.05)
frames = torch.randn(steps, batch, 2)


def rollout_buffer():
    states = torch.zeros(steps + 1, batch, width)
    for i in range(1, steps + 1):
        states[i] = net(frames[i - 1], states[i - 1])
    return states[1:]


def rollout_list():
    states = [torch.zeros(batch, width)]
    for i in range(1, steps + 1):
        states.append(net(frames[i - 1], states[i - 1]))
    return torch.stack(states[1:])


opt.zero_grad()
loss = ((head(rollout_buffer()) - frames) ** 2).mean()
try:
    loss.backward()
    raise AssertionError("expected backward to fail")
except RuntimeError as err:
    assert "inplace" in str(err)

opt.zero_grad()
before = net.rec.weight.detach().clone()
loss = ((head(rollout_list()) - frames) ** 2).mean()
loss.backward()
opt.step()
assert not torch.equal(before, net.rec.weight)
print("ok: slice writes break backward; list version trains")
