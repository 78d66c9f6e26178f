"""expect: GL001 47
dynamic: confirm
source: https://github.com/Aaditya-Prasad/consistency-policy/issues/4

Consistency-trajectory distillation of a denoiser: the student's t->s jump prediction is
mapped to time 0 by the EMA teacher and compared with the teacher's own jump. Both mappings
sit inside one torch.no_grad() block, which also swallows the student's prediction, so the
distillation term carries no gradient and the student's jump-conditioning layer never trains.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class Denoiser(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim + 1, 64), nn.SiLU(), nn.Linear(64, dim))
        self.jump = nn.Linear(1, dim)  # conditions on the stop time s of a t->s jump

    def forward(self, x, t, s=None):
        h = self.net(torch.cat([x, t[:, None]], dim=-1))
        if s is not None:
            h = h + self.jump(s[:, None])
        return h


torch.manual_seed(0)
student = Denoiser(6)
teacher = copy.deepcopy(student).requires_grad_(False)
opt = torch.optim.Adam(student.parameters(), lr=1e-3)
ema_decay = 0.99

for step in range(10):
    x0 = torch.randn(32, 6)
    t = torch.rand(32) * 0.9 + 0.1
    s = t * torch.rand(32)
    u = 0.5 * (t + s)
    noise = torch.randn_like(x0)
    x_t = x0 + t[:, None] * noise

    dsm_loss = F.mse_loss(student(x_t, t), x0)

    pred = student(x_t, t, s)
    with torch.no_grad():
        x_u = x0 + u[:, None] * noise
        target = teacher(x_u, u, s)
        start = torch.zeros_like(s)
        pred = teacher(pred, s, start)
        target = teacher(target, s, start)
    ctm_loss = F.smooth_l1_loss(pred, target)

    loss = dsm_loss + 0.5 * ctm_loss
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        for p_t, p_s in zip(teacher.parameters(), student.parameters()):
            p_t.mul_(ema_decay).add_(p_s, alpha=1 - ema_decay)

assert student.jump.weight.grad is None
assert student.jump.bias.grad is None
assert student.net[0].weight.grad is not None
print("ok: jump conditioning never trained by the distillation term")
