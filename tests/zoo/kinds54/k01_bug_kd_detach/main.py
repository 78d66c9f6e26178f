"""
expect: GL001 trainer.py:8
dynamic: confirm
source: kinds check 54, kind 1

Keyword-spotting distillation: the driver picks distill_loss by a flag and hands it to
fit_student, whose inner _update calls it. distill_loss runs the student's own logits
through _no_grad_copy (a .detach()) in the KL term, so the soft term adds no gradient:
the student's gradient equals the label-only gradient.
"""
import argparse
import torch
import torch.nn as nn
import torch.nn.functional as F
import losses
from trainer import fit_student

ap = argparse.ArgumentParser()
ap.add_argument("--no-distill", action="store_true")
args = ap.parse_args([])
criterion = losses.label_only_loss if args.no_distill else losses.distill_loss

torch.manual_seed(0)
teacher = nn.Sequential(nn.Linear(40, 64), nn.ReLU(), nn.Linear(64, 10))
student = nn.Linear(40, 10)
batches = [(torch.randn(16, 40), torch.randint(0, 10, (16,))) for _ in range(3)]

# gradient check before training
xb, yb = batches[0]
with torch.no_grad():
    tl = teacher(xb)
g_chosen = torch.autograd.grad(criterion(student(xb), tl, yb), student.weight)[0]
g_label = torch.autograd.grad(losses.label_only_loss(student(xb), tl, yb), student.weight)[0]
s = student(xb)
intended = F.cross_entropy(s, yb) + 4.0 * F.kl_div(F.log_softmax(s / 2, -1), F.softmax(tl / 2, -1),
                                                  reduction="batchmean")
g_intended = torch.autograd.grad(intended, student.weight)[0]
assert torch.allclose(g_chosen, g_label), "soft term should add no gradient"
assert not torch.allclose(g_chosen, g_intended), "intended gradient should differ"

hist = fit_student(student, teacher, batches, criterion)
assert len(hist) == 3
print("ok: KD term contributes no gradient")
