"""
expect: GL001 deq.py:28
dynamic: confirm
source: https://github.com/locuslab/torchdeq/issues/8

A deep-equilibrium layer inside a bigger model: the fixed-point solve runs
under torch.no_grad() and one extra call of the cell is supposed to
re-attach the result to the graph. The user saw the returned solution with
requires_grad=False and parameters without grads only when the solver
converged well (pretrained weights). Here the layer returns the no_grad
solution when the residual is already below tolerance, so the layer's own
weights never train. Asserts: on the converged path the cell weights get
no grad while the head does, and an always-reattach variant trains them.
"""
import torch
import torch.nn as nn

from deq import DEQLayer

torch.manual_seed(0)
torch.set_num_threads(1)


class Forecaster(nn.Module):
    def __init__(self, dim=8, tol=1e-4):
        super().__init__()
        self.enc = nn.Linear(3, dim)
        self.deq = DEQLayer(dim, tol=tol)
        self.head = nn.Linear(dim, 1)

    def forward(self, x):
        return self.head(self.deq(self.enc(x)))


x = torch.randn(16, 3)
y = torch.randn(16, 1)

model = Forecaster(tol=1e-4)
loss = ((model(x) - y) ** 2).mean()
loss.backward()
assert model.deq.res < model.deq.tol                    # converged path taken
assert model.head.weight.grad is not None
assert model.deq.lin.weight.grad is None                # DEQ cell never trained
assert model.enc.weight.grad is None                    # nor anything before it

# same weights, re-attach every time (tolerance set so the early return never fires)
fixed = Forecaster(tol=0.0)
fixed.load_state_dict(model.state_dict())
((fixed(x) - y) ** 2).mean().backward()
assert fixed.deq.lin.weight.grad is not None and fixed.deq.lin.weight.grad.abs().sum() > 0
assert fixed.enc.weight.grad.abs().sum() > 0
print("ok: converged DEQ returns the no_grad solution; cell gets no gradient")
