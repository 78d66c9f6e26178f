"""
expect: none
dynamic: dismiss
source: kinds check 54, kind 1

Sensor-activity distillation: a flag picks soft_target_loss (if/else binding a local)
and hands it to fit_student. The helper _freeze detaches only the mentor (teacher) side,
so the KD term does add gradient to the pupil.
"""
import sys
import torch
import torch.nn as nn
import losses
from trainer import fit_student

use_kd = "--ce" not in sys.argv
if use_kd:
    objective = losses.soft_target_loss
else:
    objective = losses.plain_ce

torch.manual_seed(1)
mentor = nn.Sequential(nn.Linear(24, 48), nn.Tanh(), nn.Linear(48, 6))
pupil = nn.Linear(24, 6)
batches = [(torch.randn(32, 24), torch.randint(0, 6, (32,))) for _ in range(3)]

xb, yb = batches[0]
mo = mentor(xb)
g_kd = torch.autograd.grad(objective(pupil(xb), mo, yb), pupil.weight)[0]
g_ce = torch.autograd.grad(losses.plain_ce(pupil(xb), mo, yb), pupil.weight)[0]
assert not torch.allclose(g_kd, g_ce), "KD term should contribute gradient"

hist = fit_student(pupil, mentor, batches, objective)
assert len(hist) == 3
print("ok: KD term trains the pupil")
