"""
expect: none
dynamic: dismiss
source: kinds check 19, kind 5 (written for this check)

A precipitation-nowcasting student is trained with a masked supervised loss on radar
pixels that have gauge labels plus a mean-teacher consistency loss. The loss class
inherits `_teacher_target()` from `TeacherConsistencyBase` (losses_base.py), which
detaches; it is applied only to the EMA teacher's output, which is a target and is
updated by EMA, not by the optimizer. The asserts show the student gets gradients
from both terms (the consistency weight changes them) and the teacher follows by EMA.
"""
import copy
import torch
import torch.nn as nn
from losses_base import TeacherConsistencyBase


class NowcastLoss(TeacherConsistencyBase):
    def forward(self, student_pred, teacher_pred, gauge, gauge_mask):
        sup = self._masked_mse(student_pred, gauge, gauge_mask)
        target = self._teacher_target(teacher_pred)
        cons = (student_pred - target).pow(2).mean()
        return sup + self.consistency_weight * cons


def radar_unet():
    return nn.Sequential(nn.Conv2d(4, 16, 3, padding=1), nn.GELU(), nn.Conv2d(16, 16, 3, padding=1),
                         nn.GELU(), nn.Conv2d(16, 1, 1))


@torch.no_grad()
def ema_update(teacher, student, decay=0.9):
    for t, s in zip(teacher.parameters(), student.parameters()):
        t.mul_(decay).add_(s, alpha=1 - decay)


def student_grads(student, teacher, crit, frames, gauge, mask):
    student.zero_grad(set_to_none=True)
    noisy = frames + 0.05 * torch.randn_like(frames)
    crit(student(frames), teacher(noisy), gauge, mask).backward()
    return [p.grad.clone() for p in student.parameters()]


if __name__ == "__main__":
    torch.manual_seed(14)
    student = radar_unet()
    teacher = copy.deepcopy(student)  # not in the optimizer; moved by EMA only
    opt = torch.optim.Adam(student.parameters(), lr=1e-3)
    frames = torch.rand(3, 4, 24, 24)
    gauge = torch.rand(3, 1, 24, 24)
    mask = (torch.rand(3, 1, 24, 24) < 0.05).float()
    torch.manual_seed(0)
    g_off = student_grads(student, teacher, NowcastLoss(0.0), frames, gauge, mask)
    torch.manual_seed(0)
    g_on = student_grads(student, teacher, NowcastLoss(1.0), frames, gauge, mask)
    assert all(g.abs().sum() > 0 for g in g_on)
    assert not all(torch.allclose(a, b) for a, b in zip(g_off, g_on)), "consistency term is live"
    assert all(p.grad is None for p in teacher.parameters())
    t0 = teacher[0].weight.clone()
    crit = NowcastLoss(1.0)
    for _ in range(3):
        opt.zero_grad()
        crit(student(frames), teacher(frames + 0.05 * torch.randn_like(frames)), gauge, mask).backward()
        opt.step()
        ema_update(teacher, student)
    assert not torch.equal(t0, teacher[0].weight)
    print("k5_ok_weather: detached EMA-teacher target; student trains on both terms")
