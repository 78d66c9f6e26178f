"""
expect: none
dynamic: dismiss
source: none, invented

Mean-teacher semi-supervised classification of two interleaved moons with only 16 labelled points.
The teacher is not a separate module: its weights are a dict built once with
`{name: p.detach().clone() for name, p in student.named_parameters()}` and then updated as an
exponential moving average by `ema_update_` (ema.py) after every optimizer step; the teacher's
predictions come from `torch.func.functional_call(student, teacher_params, x)` and serve as the
consistency target.  The teacher must not receive gradient, so taking detached copies is correct;
the student is trained through its own live parameters.  The asserts check that the teacher tensors
never require grad yet move towards the student, that the student's parameters get gradient from
the consistency term, and that the student classifies the unlabelled points well.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

from ema import ema_update_, ramp_up

torch.manual_seed(0)
torch.set_num_threads(1)


def moons(n):
    y = torch.randint(0, 2, (n,))
    t = math.pi * torch.rand(n)
    x = torch.stack([torch.cos(t), torch.sin(t)], 1)
    x[y == 1] = torch.stack([1 - torch.cos(t[y == 1]), 0.5 - torch.sin(t[y == 1])], 1)
    return x + 0.1 * torch.randn(n, 2), y


x_lab, y_lab = moons(16)
x_unl, y_unl = moons(800)

student = nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))
teacher_params = {name: p.detach().clone() for name, p in student.named_parameters()}
initial_teacher = {k: v.clone() for k, v in teacher_params.items()}
opt = torch.optim.Adam(student.parameters(), lr=3e-3)

for step in range(600):
    idx = torch.randint(0, len(x_unl), (128,))
    xu = x_unl[idx]
    noisy_s = xu + 0.05 * torch.randn_like(xu)
    noisy_t = xu + 0.05 * torch.randn_like(xu)
    with torch.no_grad():
        target = F.softmax(functional_call(student, teacher_params, (noisy_t,)), -1)
    sup = F.cross_entropy(student(x_lab), y_lab)
    cons = F.mse_loss(F.softmax(student(noisy_s), -1), target)
    if step == 300:
        g = torch.autograd.grad(cons, student[0].weight, retain_graph=True)[0]
        assert g.abs().sum() > 0
    loss = sup + 10.0 * ramp_up(step, 200) * cons
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema_update_(teacher_params, student, decay=0.99)

assert not any(t.requires_grad for t in teacher_params.values())
assert all(not torch.equal(initial_teacher[k], v) for k, v in teacher_params.items())
with torch.no_grad():
    acc = (student(x_unl).argmax(-1) == y_unl).float().mean().item()
    t_acc = (functional_call(student, teacher_params, (x_unl,)).argmax(-1) == y_unl).float().mean().item()
assert acc > 0.85 and t_acc > 0.85, (acc, t_acc)
print(f"k11: EMA teacher from detached copies; student {acc:.2f}, teacher {t_acc:.2f}")
