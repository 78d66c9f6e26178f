"""
expect: none
dynamic: dismiss
source: kinds check 26, kind 4

Same loss_fn helper in a student/teacher forecaster: the detached value is the
teacher's prediction, passed as the target that the live student prediction
is compared with, while reg_input is the student's live hidden trajectory.
Both terms train the student.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


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
teacher = Forecaster(hidden=20)
student = Forecaster()
series = torch.randn(8, 15, 1).cumsum(dim=1)
teacher_pred, _ = teacher(series)
pred, states = student(series)
loss = loss_fn(pred, teacher_pred.detach(), states, 0.5)
loss.backward()
assert all(p.grad is None for p in teacher.parameters())
grads = [p.grad.clone() for p in student.rnn.parameters()]
assert all(g.abs().sum() > 0 for g in grads)

student.zero_grad()
pred, states = student(series)
F.mse_loss(pred, teacher_pred.detach()).backward()
assert any(not torch.allclose(a, p.grad) for a, p in zip(grads, student.rnn.parameters()))
print("ok: distillation target detached, penalty live")
