"""
expect: none
dynamic: dismiss
source: https://github.com/neuropoly/domainadaptation/issues/1

Look-alike. Mean-teacher domain adaptation: the teacher is an exponential moving average of the
student, updated in place with `ema_param.data.mul_(alpha).add_(...)`, and its predictions are
the consistency targets. The issue asks whether that in-place update rule is right. In-place
`.data` edits of parameters are the shape of a saved-tensor clobber, but here the teacher runs
under no_grad (nothing of it is saved for backward) and the update happens after the student's
backward and step. The asserts show the teacher never gets a .grad, the student gets a gradient
from the consistency term (weight 0 vs 5 differ), and after each update every teacher parameter
equals alpha * old_teacher + (1 - alpha) * student.
"""
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def update_ema_variables(model, ema_model, alpha, global_step):
    alpha = min(1 - 1 / (global_step + 1), alpha)
    for ema_param, param in zip(ema_model.parameters(), model.parameters()):
        ema_param.data.mul_(alpha).add_(param.data, alpha=1 - alpha)
    return alpha


class MeanTeacherTrainer:
    def __init__(self, cons_weight=5.0, alpha=0.9):
        self.student = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.0), nn.Linear(16, 2))
        self.teacher = copy.deepcopy(self.student)
        for p in self.teacher.parameters():
            p.detach_()
        self.opt = torch.optim.SGD(self.student.parameters(), lr=0.1)
        self.cons_weight, self.alpha, self.step_i = cons_weight, alpha, 0

    def losses(self, xs, ys, xt):
        sup = F.cross_entropy(self.student(xs), ys)
        with torch.no_grad():
            target = F.softmax(self.teacher(xt + 0.05 * torch.randn_like(xt)), 1)
        cons = F.mse_loss(F.softmax(self.student(xt), 1), target)
        return sup, cons

    def step(self, xs, ys, xt):
        self.opt.zero_grad()
        sup, cons = self.losses(xs, ys, xt)
        (sup + self.cons_weight * cons).backward()
        self.opt.step()
        self.step_i += 1
        old = [p.clone() for p in self.teacher.parameters()]
        a = update_ema_variables(self.student, self.teacher, self.alpha, self.step_i)
        return old, a


xs, ys = torch.randn(16, 8), torch.randint(0, 2, (16,))
xt = torch.randn(16, 8) + 1.0

tr = MeanTeacherTrainer()
for _ in range(5):
    old, a = tr.step(xs, ys, xt)
    for o, t, s in zip(old, tr.teacher.parameters(), tr.student.parameters()):
        assert torch.allclose(t, a * o + (1 - a) * s.detach(), atol=1e-6)
assert all(p.grad is None for p in tr.teacher.parameters())


def student_grad(weight):
    torch.manual_seed(1)
    t = MeanTeacherTrainer(cons_weight=weight)
    t.teacher.load_state_dict(tr.teacher.state_dict())
    t.student.load_state_dict(tr.student.state_dict())
    sup, cons = t.losses(xs, ys, xt)
    (sup + weight * cons).backward()
    return t.student[0].weight.grad.clone()


assert not torch.allclose(student_grad(0.0), student_grad(5.0))
print("ok: EMA teacher updated in place correctly; consistency term trains the student")
