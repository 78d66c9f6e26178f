"""
expect: none
dynamic: dismiss
source: kinds check 55, kind 1

Same keyword-spotting distillation, but the recorder is attached to the frozen
teacher only; the student's hint features come straight out of its own forward
(split into body and classifier), so the hint term keeps its graph.
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
opt = torch.optim.Adam(student.parameters(), lr=1e-3)

mels = torch.randn(8, 40, 50)
words = torch.randint(0, 10, (8,))
teacher(mels)
feats = student[:4](mels)
logits = student[4:](feats)
task = F.cross_entropy(logits, words)
hint = F.mse_loss(feats, t_rec.store["3"])
loss = task + 10.0 * hint
opt.zero_grad()
loss.backward()
g_total = student[2].weight.grad.clone()

student.zero_grad()
F.cross_entropy(student(mels), words).backward()
assert hint.requires_grad
assert not torch.allclose(g_total, student[2].weight.grad)
opt.step()
print("ok: hint term trains the student")
