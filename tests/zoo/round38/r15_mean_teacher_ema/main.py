"""
expect: none
dynamic: dismiss
source: https://github.com/CuriousAI/mean-teacher/issues/28

Mean Teacher keeps an exponential-moving-average copy of the student; the
teacher's weights are edited in place through `.data` after every optimizer
step, and its predictions serve as consistency targets. An issue doubted the
EMA line. Here the teacher's parameters are detached at creation, so no graph
ever saves them and the in-place EMA edit is harmless. The asserts check that
the student trains through both loss terms, the teacher gets no gradient, and
its weights follow the EMA formula exactly.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from ema import make_teacher, update_ema_variables

torch.manual_seed(0)
torch.set_num_threads(1)

student = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 3))
teacher = make_teacher(student)
opt = torch.optim.SGD(student.parameters(), lr=0.1)

x_lab = torch.randn(16, 8)
y_lab = torch.randint(0, 3, (16,))
x_unl = torch.randn(48, 8)


def consistency(student_logits, teacher_logits):
    return F.mse_loss(F.softmax(student_logits, 1), F.softmax(teacher_logits, 1))


for step in range(6):
    noisy = x_unl + 0.1 * torch.randn_like(x_unl)
    teacher_out = teacher(noisy)
    student_out = student(x_unl)
    loss = F.cross_entropy(student(x_lab), y_lab) + 5.0 * consistency(student_out, teacher_out)
    opt.zero_grad()
    loss.backward()
    opt.step()
    t_before = [p.clone() for p in teacher.parameters()]
    update_ema_variables(student, teacher, 0.99, step)

alpha = min(1 - 1 / (5 + 1), 0.99)
for tb, t, s in zip(t_before, teacher.parameters(), student.parameters()):
    assert torch.allclose(t, alpha * tb + (1 - alpha) * s, atol=1e-6)
    assert t.grad is None and not t.requires_grad

# the consistency term alone trains the student
opt.zero_grad()
consistency(student(x_unl), teacher(x_unl)).backward()
assert student[0].weight.grad.abs().sum() > 0
print("ok")
