"""
expect: none
dynamic: dismiss
source: https://github.com/lenscloth/RKD/issues/16

The question: RKD's RkdAngle/RkdDistance compute the teacher's relations inside torch.no_grad();
is that essential, and does it stop learning? The author answered that it only covers the teacher,
which is not trained anyway. This program rebuilds the two losses in rkd_losses.py (teacher side under
no_grad, student side recorded) and distils a frozen teacher into a student. The asserts show every
student parameter gets a non-zero gradient, the teacher gets none by design, and the combined RKD loss
falls over the steps.
"""
import torch
import torch.nn as nn

from rkd_losses import RkdAngle, RkdDistance


def embedder(out_dim):
    return nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, out_dim))


torch.manual_seed(0)
teacher, student = embedder(16), embedder(8)
for p in teacher.parameters():
    p.requires_grad_(False)
teacher.eval()

dist_crit, angle_crit = RkdDistance(), RkdAngle()
opt = torch.optim.Adam(student.parameters(), lr=1e-2)
images = torch.randn(24, 20)

losses = []
for step in range(40):
    with torch.no_grad():
        t_emb = teacher(images)
    s_emb = student(images)
    loss = dist_crit(s_emb, t_emb) + 2.0 * angle_crit(s_emb, t_emb)
    opt.zero_grad()
    loss.backward()
    if step == 0:
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in student.parameters())
        assert all(p.grad is None for p in teacher.parameters())
    opt.step()
    losses.append(loss.item())

assert losses[-1] < 0.7 * losses[0], (losses[0], losses[-1])
print("ok: teacher-side no_grad leaves the student fully trained", round(losses[0], 4), "->", round(losses[-1], 4))
