"""
expect: GL001 52
dynamic: confirm
source: https://github.com/JohnNesbit/Meta-Pseudo-Labels-Pytorch/blob/HEAD/SoftMetaPseudoLabels.py

Soft Meta Pseudo Labels on a toy semi-supervised task: a pre-trained teacher produces soft labels
on unlabeled points, the student fits them with an MSE loss and takes an optimizer step, and then
the student's cross-entropy on a labeled batch is backpropagated so that, in the author's words,
the supervised signal "trickles through the whole graph" back to the teacher. But the student's
new weights come from soptimizer.step(), an in-place update made under no_grad: the updated
weights have no history linking them to the teacher's pseudo-labels, so the supervised loss
reaches only the student and the teacher's optimizer steps on the MSE gradient alone. The asserts
record the teacher's .grad before and after the supervised backward (identical) and show that a
differentiable student update (torch.func.functional_call on p - lr * grad with create_graph=True)
gives the teacher a nonzero gradient from the supervised loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(0)
torch.set_num_threads(1)

CLASSES = 3


def make_net():
    return nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, CLASSES), nn.Softmax(dim=1))


def toy_data(n):
    y = torch.randint(0, CLASSES, (n,))
    centers = torch.tensor([[2.0, 0.0], [-1.0, 1.7], [-1.0, -1.7]])
    return centers[y] + 0.6 * torch.randn(n, 2), y


def pretrain(teacher, x, y, steps=100):
    opt = torch.optim.Adam(teacher.parameters(), lr=1e-2)
    for _ in range(steps):
        opt.zero_grad()
        F.nll_loss(torch.log(teacher(x) + 1e-8), y).backward()
        opt.step()


def mpl_epoch(teacher, student, toptimizer, soptimizer, unlabeled, labeled, record):
    for xu, (xl, yl) in zip(unlabeled, labeled):
        # unsupervised: the teacher teaches the student
        pseudo = teacher(xu)
        loss_u = F.mse_loss(student(xu), pseudo)
        loss_u.backward()
        soptimizer.step()
        soptimizer.zero_grad()

        # supervised: meant to reach the teacher through the student's update
        before = [p.grad.clone() for p in teacher.parameters()]
        loss_l = F.nll_loss(torch.log(student(xl) + 1e-8), yl)
        loss_l.backward()
        after = [p.grad.clone() for p in teacher.parameters()]
        record.append(sum((a - b).abs().sum().item() for a, b in zip(after, before)))

        soptimizer.step()
        toptimizer.step()
        toptimizer.zero_grad()
        soptimizer.zero_grad()


def meta_teacher_grad(teacher, student, xu, xl, yl, lr=0.1):
    """Intended: student update kept in the graph, supervised loss differentiated w.r.t. the teacher."""
    params = dict(student.named_parameters())
    loss_u = F.mse_loss(functional_call(student, params, (xu,)), teacher(xu))
    grads = torch.autograd.grad(loss_u, list(params.values()), create_graph=True)
    updated = {k: p - lr * g for (k, p), g in zip(params.items(), grads)}
    loss_l = F.nll_loss(torch.log(functional_call(student, updated, (xl,)) + 1e-8), yl)
    return torch.autograd.grad(loss_l, list(teacher.parameters()))


x_lab, y_lab = toy_data(60)
x_unl, _ = toy_data(240)
teacher, student = make_net(), make_net()
pretrain(teacher, x_lab, y_lab)
toptimizer = torch.optim.Adam(teacher.parameters(), lr=1e-3)
soptimizer = torch.optim.Adam(student.parameters(), lr=1e-2)

unlabeled = x_unl.split(40)
labeled = list(zip(x_lab.split(10), y_lab.split(10)))
teacher_delta = []
teacher_before = [p.detach().clone() for p in teacher.parameters()]
mpl_epoch(teacher, student, toptimizer, soptimizer, unlabeled, labeled, teacher_delta)

assert len(teacher_delta) == 6 and all(d == 0.0 for d in teacher_delta)
# the teacher still moves, but only because of the student-matching MSE term
assert any(not torch.equal(a, b) for a, b in zip(teacher_before, teacher.parameters()))

g = meta_teacher_grad(teacher, student, unlabeled[0], *labeled[0])
meta_norm = sum(t.abs().sum().item() for t in g)
assert meta_norm > 1e-6
print(f"teacher gradient from the supervised loss: step-based {max(teacher_delta)}, differentiable {meta_norm:.2e}")
