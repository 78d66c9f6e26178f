"""
expect: none
dynamic: dismiss
source: https://github.com/open-mmlab/mmrazor/pull/100

The PR detaches the teacher output in the self-distiller: when Channel-Wise Distillation was
used with a teacher that is itself a live, trainable module, the loss backpropagated into the
teacher and raised during backward. This program keeps the distiller in its own module; the
teacher feature is detached before the channel-wise KL loss, deliberately, because only the
student should learn from it. The asserts show the student gets a nonzero gradient and moves
toward the teacher (the loss drops), while the teacher, whose parameters still require grad,
gets no gradient and does not change.
"""
import torch
import torch.nn as nn

from distiller import SelfDistiller

torch.manual_seed(0)

teacher = nn.Sequential(nn.Conv1d(3, 6, 3, padding=1), nn.ReLU(), nn.Conv1d(6, 4, 1))
student = nn.Sequential(nn.Conv1d(3, 4, 3, padding=1))
distiller = SelfDistiller(teacher, student)
opt = torch.optim.Adam(student.parameters(), lr=5e-2)
t0 = [p.detach().clone() for p in teacher.parameters()]
x = torch.randn(8, 3, 10)

losses = []
for step in range(40):
    opt.zero_grad()
    loss = distiller.compute_distill_loss(x)
    loss.backward()
    if step == 0:
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in student.parameters())
    opt.step()
    losses.append(loss.item())

assert all(p.requires_grad and p.grad is None for p in teacher.parameters())
assert all(torch.equal(a, b) for a, b in zip(t0, teacher.parameters()))
assert losses[-1] < 0.5 * losses[0], losses
print("ok: detached teacher output trains the student only; %.4f -> %.4f" % (losses[0], losses[-1]))
