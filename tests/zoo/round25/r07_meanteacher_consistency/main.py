"""
expect: GL001 algo.py:44
dynamic: confirm
source: https://github.com/microsoft/Semi-supervised-learning/issues/102

The issue: in the Mean Teacher train_step the student's strong-view logits are
taken from the teacher's weak-view outputs (computed under no_grad), so the
consistency term is built only from no-grad values and never trains the student.
algo.py reproduces the step with an EMA teacher. The asserts show the unsupervised
loss carries no graph, that its weight has no effect on the student's gradients,
and that using the student's own strong-view output gives a live term.
"""
import copy

import torch
import torch.nn as nn

from algo import MeanTeacher

torch.manual_seed(0)
torch.set_num_threads(1)

net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
x_lb = torch.randn(8, 10)
y_lb = torch.randint(0, 4, (8,))
x_ulb = torch.randn(32, 10)
x_w = x_ulb + 0.05 * torch.randn_like(x_ulb)
x_s = x_ulb + 0.5 * torch.randn_like(x_ulb)


def first_step(weight, fixed):
    algo = MeanTeacher(copy.deepcopy(net), unsup_weight=weight, fixed=fixed)
    # give the teacher a different state so the consistency target is informative
    with torch.no_grad():
        for p in algo.ema.shadow.parameters():
            p.add_(0.3 * torch.randn_like(p))
    return algo.train_step(x_lb, y_lb, x_w, x_s)


u1, g1 = first_step(1.0, fixed=False)
u2, g2 = first_step(50.0, fixed=False)
assert not u1.requires_grad and u1.grad_fn is None
assert all(torch.equal(a, b) for a, b in zip(g1, g2))  # weight 1 vs 50: same gradients

f1, h1 = first_step(1.0, fixed=True)
f2, h2 = first_step(50.0, fixed=True)
assert f1.grad_fn is not None
assert any(not torch.allclose(a, b) for a, b in zip(h1, h2))
print("ok")
