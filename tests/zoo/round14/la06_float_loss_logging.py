"""
expect: none
dynamic: dismiss
source: https://github.com/pytorch/pytorch/pull/6017

The pull request updates the FAQ after the Tensor/Variable merge: code that accumulates
`total_loss += loss` keeps every iteration's autograd graph alive, and the advice is to
convert the per-iteration loss to a Python number, e.g. `total_loss += float(loss)`. This
program rebuilds a trainer that follows that advice and also rebuilds a running loss average
from those Python numbers into a tensor that deliberately rescales the loss as a constant.
It is a look-alike: the numbers taken out of the record are only logged or used as a
constant scale, and the loss itself stays connected; the asserts show every parameter gets
the gradient of loss/scale, the epoch total is a plain float, and the loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, x):
        return self.net(x)


class Trainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.05)
        self.history = []

    def step(self, x, y):
        loss = F.mse_loss(self.model(x), y)
        avg = sum(self.history[-10:]) / len(self.history[-10:]) if self.history else 1.0
        scale = torch.tensor(max(avg, 1e-3))
        scaled = loss / scale
        self.opt.zero_grad()
        scaled.backward()
        self.opt.step()
        self.history.append(float(loss))
        return scaled, scale

    def epoch(self, data):
        total_loss = 0.0
        for x, y in data:
            self.step(x, y)
            total_loss += float(self.history[-1])
        return total_loss


torch.manual_seed(0)
w = torch.randn(4, 1)
data = [(x, x @ w) for x in (torch.randn(16, 4) for _ in range(8))]
model = Regressor()
trainer = Trainer(model)

x0, y0 = data[0]
trainer.history = [2.0]
ref = torch.autograd.grad(F.mse_loss(model(x0), y0) / 2.0, list(model.parameters()))
before = [p.detach().clone() for p in model.parameters()]
trainer.step(x0, y0)
for p, g, b in zip(model.parameters(), ref, before):
    assert torch.allclose(p.grad, g, atol=1e-6)
    assert not torch.equal(p.detach(), b)

totals = [trainer.epoch(data) for _ in range(15)]
assert all(isinstance(t, float) for t in totals)
assert totals[-1] < 0.5 * totals[0], totals
print("ok: losses leave the record only for logging and a constant scale; training works")
