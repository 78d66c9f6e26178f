"""
expect: none
dynamic: dismiss
source: https://github.com/pytorch/translate/pull/391

A dual-decoder translation model distils a teacher decoder into a student
decoder; the PR adds `.detach()` to the teacher's output probabilities so the
KD term only trains the student (and not the teacher toward the student).
This look-alike keeps that detach inside a loss object: the teacher is still
trained by its own NLL term, the student gets gradient from both terms, and the
KD term sends nothing into the teacher. The asserts check all three.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class DualDecoder(nn.Module):
    def __init__(self, d=16, vocab=12):
        super().__init__()
        self.encoder = nn.Linear(d, d)
        self.teacher = nn.Sequential(nn.Linear(d, 32), nn.Tanh(), nn.Linear(32, vocab))
        self.student = nn.Linear(d, vocab)

    def forward(self, x):
        h = torch.tanh(self.encoder(x))
        return self.teacher(h), self.student(h)


class DualDecoderCriterion:
    def __init__(self, kd_weight=0.5):
        self.kd_weight = kd_weight

    def teacher_targets(self, teacher_logits):
        # targets for the student only: the KD term must not move the teacher
        return F.softmax(teacher_logits, dim=-1).detach()

    def __call__(self, teacher_logits, student_logits, y):
        nll_t = F.cross_entropy(teacher_logits, y)
        nll_s = F.cross_entropy(student_logits, y)
        probs_t = self.teacher_targets(teacher_logits)
        kd = -(probs_t * F.log_softmax(student_logits, dim=-1)).sum(-1).mean()
        return nll_t + nll_s + self.kd_weight * kd, kd


model = DualDecoder()
crit = DualDecoderCriterion()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(32, 16)
y = torch.randint(0, 12, (32,))

t0 = [p.clone() for p in model.teacher.parameters()]
s0 = [p.clone() for p in model.student.parameters()]
for _ in range(5):
    opt.zero_grad()
    t_logits, s_logits = model(x)
    loss, kd = crit(t_logits, s_logits, y)
    loss.backward()
    opt.step()

# both decoders train
assert all(not torch.equal(a, b) for a, b in zip(t0, model.teacher.parameters()))
assert all(not torch.equal(a, b) for a, b in zip(s0, model.student.parameters()))

# the KD term alone reaches the student but not the teacher
model.zero_grad()
t_logits, s_logits = model(x)
_, kd = crit(t_logits, s_logits, y)
kd.backward()
assert model.student.weight.grad.abs().sum() > 0
assert all(p.grad is None or p.grad.abs().sum() == 0 for p in model.teacher.parameters())
print("ok")
