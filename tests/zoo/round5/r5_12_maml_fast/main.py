"""expect: GL003 34
dynamic: confirm
source: https://github.com/dragen1860/MAML-Pytorch/issues/40

MAML on sinusoid regression. The inner-loop helper `adapt` (learner.py) computes the fast
weights under torch.no_grad(), so the query loss has no grad_fn; the training loop then calls
requires_grad_() on the fast weights to make backward run. The gradient stops at those new
leaves and the meta-parameters never receive a gradient, so meta-training does nothing.
"""
import math

import torch
import torch.nn.functional as F

from learner import FunctionalMLP, adapt


def sample_task(n=10):
    amp, phase = torch.empty(1).uniform_(0.1, 5.0), torch.empty(1).uniform_(0, math.pi)
    xs, xq = torch.empty(n, 1).uniform_(-5, 5), torch.empty(n, 1).uniform_(-5, 5)
    return xs, amp * torch.sin(xs + phase), xq, amp * torch.sin(xq + phase)


torch.manual_seed(0)
model = FunctionalMLP()
meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
snapshot = [p.detach().clone() for p in model.parameters()]

for meta_iter in range(5):
    meta_opt.zero_grad()
    for task in range(4):
        x_s, y_s, x_q, y_q = sample_task()
        fast = adapt(model, x_s, y_s, inner_lr=0.01)
        fast = [w.requires_grad_() for w in fast]
        query_loss = F.mse_loss(model(x_q, fast), y_q) / 4
        query_loss.backward()
    meta_opt.step()

assert all(p.grad is None for p in model.parameters())
assert all(torch.equal(a, b) for a, b in zip(snapshot, model.parameters()))
print("ok: meta-parameters never trained")
