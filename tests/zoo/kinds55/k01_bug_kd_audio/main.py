"""
expect: GL001 main.py:36
dynamic: confirm
source: kinds check 55, kind 1

A small keyword-spotting student is distilled from a frozen spectrogram teacher.
An ActivationRecorder (probe.py) hooks the middle conv block of both networks and
keeps detached copies; the feature-matching term reads the student's recorded
features, so it carries no graph and adds nothing to the student's gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from probe import ActivationRecorder


def spectro_net():
    return nn.Sequential(
        nn.Conv1d(40, 32, 3, padding=1), nn.ReLU(),
        nn.Conv1d(32, 32, 3, padding=1), nn.ReLU(),
        nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(32, 10))


torch.manual_seed(0)
teacher, student = spectro_net(), spectro_net()
teacher.requires_grad_(False)
t_rec = ActivationRecorder(teacher, ["3"])
s_rec = ActivationRecorder(student, ["3"])
opt = torch.optim.Adam(student.parameters(), lr=1e-3)

mels = torch.randn(8, 40, 50)
words = torch.randint(0, 10, (8,))
teacher(mels)
logits = student(mels)
task = F.cross_entropy(logits, words)
hint = F.mse_loss(s_rec.store["3"], t_rec.store["3"])
loss = task + 10.0 * hint
opt.zero_grad()
loss.backward()
g_total = student[2].weight.grad.clone()

# the hint term contributed nothing: same gradient as the task loss alone
student.zero_grad()
F.cross_entropy(student(mels), words).backward()
assert not hint.requires_grad
assert torch.allclose(g_total, student[2].weight.grad)
# the intended hint (student features with their graph) does change it
student.zero_grad()
feats = student[:4](mels)
hint_ok = F.mse_loss(feats, t_rec.store["3"])
(F.cross_entropy(student[4:](feats), words) + 10.0 * hint_ok).backward()
assert not torch.allclose(g_total, student[2].weight.grad)
opt.step()
print("ok: student hint term carried no gradient")
