"""
expect: none
dynamic: dismiss
source: kinds check 25, kind 3

Distilling a frozen click-through ranker into a small student. The top model holds
`self.teacher = TeacherRanker()` (teacher.py: parameters frozen, forward under no_grad and
detached) next to `self.student`. The optimizer covers only the student. The loss is BCE on
the clicks plus a soft-label BCE of the attached student logits toward the detached teacher
probabilities, so the student learns from both and the teacher correctly stays fixed.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from teacher import TeacherRanker

torch.manual_seed(0)
torch.set_num_threads(1)


class DistillRanker(nn.Module):
    def __init__(self, n_feat=20):
        super().__init__()
        self.teacher = TeacherRanker(n_feat)
        self.student = nn.Sequential(nn.Linear(n_feat, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, x):
        return self.student(x).squeeze(-1), self.teacher(x)


model = DistillRanker()
opt = torch.optim.Adam(model.student.parameters(), lr=1e-2)
x = torch.randn(256, 20)
clicks = (torch.rand(256) < 0.3).float()
teacher_before = [p.clone() for p in model.teacher.parameters()]


def loss_with(alpha):
    s_logits, t_logits = model(x)
    hard = F.binary_cross_entropy_with_logits(s_logits, clicks)
    soft = F.binary_cross_entropy_with_logits(s_logits, torch.sigmoid(t_logits))
    return hard + alpha * soft


for step in range(40):
    loss = loss_with(1.0)
    opt.zero_grad()
    loss.backward()
    opt.step()

model.zero_grad()
loss_with(1.0).backward()
g_1 = [p.grad.clone() for p in model.student.parameters()]
model.zero_grad()
loss_with(0.0).backward()
g_0 = [p.grad.clone() for p in model.student.parameters()]
assert all(g.abs().sum() > 0 for g in g_1), "student trains"
assert any(not torch.allclose(a, b) for a, b in zip(g_1, g_0)), "distillation term shapes the student"
assert all(torch.equal(a, b) for a, b in zip(teacher_before, model.teacher.parameters()))
assert all(p.grad is None for p in model.teacher.parameters())
print("ok: student distilled, teacher unchanged")
