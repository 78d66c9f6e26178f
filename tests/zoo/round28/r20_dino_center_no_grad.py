"""
expect: none
dynamic: dismiss
source: https://github.com/vturrisi/solo-learn/pull/59

The PR adding DINO to a self-supervised library has DINOLoss call an
update_center() method decorated with @torch.no_grad() right after building
the loss, and the teacher is an EMA copy updated without gradients. Both are
on purpose: the center is a running statistic subtracted from the teacher
logits, and only the student is trained by backprop. Here the same pieces are
split over DINOLoss and an EMA helper. The asserts show the student changes
every step, the center moves but never carries a graph, and the teacher
follows the student only through the EMA.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class DINOLoss(nn.Module):
    def __init__(self, out_dim, student_temp=0.1, teacher_temp=0.04, center_momentum=0.9):
        super().__init__()
        self.student_temp, self.teacher_temp = student_temp, teacher_temp
        self.center_momentum = center_momentum
        self.register_buffer("center", torch.zeros(1, out_dim))

    def forward(self, student_out, teacher_out):
        s = F.log_softmax(student_out / self.student_temp, dim=-1).chunk(2)
        t = F.softmax((teacher_out - self.center) / self.teacher_temp, dim=-1).detach().chunk(2)
        total, n = 0.0, 0
        for i, ti in enumerate(t):
            for j, sj in enumerate(s):
                if i == j:
                    continue
                total = total + torch.sum(-ti * sj, dim=-1).mean()
                n += 1
        self.update_center(teacher_out)
        return total / n

    @torch.no_grad()
    def update_center(self, teacher_out):
        batch_center = teacher_out.mean(dim=0, keepdim=True)
        self.center = self.center * self.center_momentum + batch_center * (1 - self.center_momentum)


@torch.no_grad()
def ema_update(teacher, student, m=0.9):
    for pt, ps in zip(teacher.parameters(), student.parameters()):
        pt.mul_(m).add_(ps.detach(), alpha=1 - m)


student = nn.Sequential(nn.Linear(10, 32), nn.GELU(), nn.Linear(32, 8))
teacher = copy.deepcopy(student)
for p in teacher.parameters():
    p.requires_grad = False
criterion = DINOLoss(8)
opt = torch.optim.SGD(student.parameters(), lr=0.05)

for it in range(5):
    x = torch.randn(16, 10)
    views = torch.cat([x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x)])
    center_before = criterion.center.clone()
    w_before = student[0].weight.detach().clone()
    t_before = teacher[0].weight.clone()
    loss = criterion(student(views), teacher(views))
    opt.zero_grad()
    loss.backward()
    assert student[0].weight.grad.abs().sum() > 0
    opt.step()
    ema_update(teacher, student)
    assert not torch.equal(student[0].weight, w_before)
    assert not torch.equal(criterion.center, center_before)
    assert criterion.center.grad_fn is None and not criterion.center.requires_grad
    assert teacher[0].weight.grad is None and not torch.equal(teacher[0].weight, t_before)
print("DINO: student trained by backprop, center/teacher updated without graphs")
