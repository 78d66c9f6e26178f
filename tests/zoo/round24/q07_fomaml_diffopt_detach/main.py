"""
expect: GL003 inner_opt.py:20
dynamic: confirm
source: https://github.com/facebookresearch/higher/issues/102

A user ran "first-order MAML" with higher by setting track_higher_grads=False and found every
meta-parameter .grad was None, so meta_opt.step() did nothing. higher's DifferentiableOptimizer
rebuilds the fast weights as p.detach().requires_grad_() when it does not track higher grads,
which makes them fresh leaves: the query loss backpropagates into those leaves and stops there.
inner_opt.py mirrors that step; main.py meta-trains a sine-regression MLP with it. The asserts
show the meta-parameters get no gradient and never change, while copying the fast-weight grads
onto the meta-parameters (explicit first-order MAML) does update them.
"""
import math

import torch
import torch.nn.functional as F

from inner_opt import DifferentiableSGD

torch.manual_seed(0)
torch.set_num_threads(1)


def init_params():
    w1 = torch.randn(1, 40) * 0.5
    w2 = torch.randn(40, 1) * 0.2
    return [w1.requires_grad_(), torch.zeros(40, requires_grad=True),
            w2.requires_grad_(), torch.zeros(1, requires_grad=True)]


def fnet(x, params):
    w1, b1, w2, b2 = params
    return torch.relu(x @ w1 + b1) @ w2 + b2


def sample_task():
    amp, phase = 0.1 + 4.9 * torch.rand(1), math.pi * torch.rand(1)
    def draw(n):
        x = torch.rand(n, 1) * 10 - 5
        return x, amp * torch.sin(x + phase)
    return draw


def meta_train(meta_params, first_order_copy=False, iters=5, tasks=4):
    meta_opt = torch.optim.Adam(meta_params, lr=1e-3)
    inner = DifferentiableSGD(lr=0.01, track_higher_grads=False)
    for _ in range(iters):
        meta_opt.zero_grad()
        for _ in range(tasks):
            draw = sample_task()
            x_spt, y_spt = draw(10)
            x_qry, y_qry = draw(10)
            fast = meta_params
            for _ in range(3):
                fast = inner.step(F.mse_loss(fnet(x_spt, fast), y_spt), fast)
            qry_loss = F.mse_loss(fnet(x_qry, fast), y_qry)
            qry_loss.backward()
            if first_order_copy:
                for p, f in zip(meta_params, fast):
                    p.grad = f.grad.clone() if p.grad is None else p.grad + f.grad
        grads = [p.grad for p in meta_params]
        meta_opt.step()
    return grads


params = init_params()
start = [p.detach().clone() for p in params]
grads = meta_train(params)
assert all(g is None for g in grads)
assert all(torch.equal(a, b) for a, b in zip(start, params))

params_fo = [p.detach().clone().requires_grad_() for p in start]
grads = meta_train(params_fo, first_order_copy=True)
assert all(g is not None for g in grads)
assert any(not torch.equal(a, b) for a, b in zip(start, params_fo))
print("q07 ok: detach().requires_grad_() in the inner optimiser leaves meta-params without grads")
