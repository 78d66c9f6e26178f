"""
expect: GL001 34
dynamic: confirm
source: kinds check 46, kind 2

Distilling a keyword-spotting classifier for audio frames: a wide teacher is
trained first, then frozen with eval(), and a small student is trained on
cross-entropy plus a KL distillation term. The author wrapped the whole
soft-target block in no_grad, including the student's log-probabilities, so
the KL term is a constant and the student learns nothing from the teacher.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(2)
frames = torch.randn(256, 40)
labels = (frames[:, :10].sum(1) > 0).long() + 2 * (frames[:, 10:20].sum(1) > 0).long()

teacher = nn.Sequential(nn.Linear(40, 128), nn.ReLU(), nn.Linear(128, 4))
t_opt = torch.optim.Adam(teacher.parameters(), lr=3e-3)
for _ in range(30):
    t_loss = F.cross_entropy(teacher(frames), labels)
    t_opt.zero_grad()
    t_loss.backward()
    t_opt.step()
teacher.eval()

student = nn.Sequential(nn.Linear(40, 16), nn.ReLU(), nn.Linear(16, 4))
s_opt = torch.optim.Adam(student.parameters(), lr=3e-3)
T = 2.0
for _ in range(10):
    s_logits = student(frames)
    with torch.no_grad():
        t_soft = F.softmax(teacher(frames) / T, dim=1)
        s_log = F.log_softmax(s_logits / T, dim=1)
    kd = F.kl_div(s_log, t_soft, reduction="batchmean") * T * T
    ce = F.cross_entropy(s_logits, labels)
    loss = 0.5 * ce + 0.5 * kd
    s_opt.zero_grad()
    loss.backward()
    s_opt.step()

# the KD term carries no gradient to the student
assert not kd.requires_grad
# computed outside no_grad (teacher still frozen) it would train the student
s_logits = student(frames)
with torch.no_grad():
    t_soft = F.softmax(teacher(frames) / T, dim=1)
kd_ok = F.kl_div(F.log_softmax(s_logits / T, dim=1), t_soft, reduction="batchmean")
g = torch.autograd.grad(kd_ok, student[0].weight)[0]
assert g.abs().sum() > 0
print("ok: KD term trains nothing when the student side is under no_grad")
