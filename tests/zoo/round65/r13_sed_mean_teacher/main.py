"""
expect: none
dynamic: dismiss
source: https://github.com/turpaultn/DCASE2019_task4/blob/master/baseline/main.py

Sound event detection (DCASE task 4 baseline). A CRNN student is trained on weak
(clip) and strong (frame) labels plus a mean-teacher consistency term. The teacher
predictions are cut with `.detach()`, the teacher weights are an exponential moving
average written in place through `ema_param.data.mul_(...).add_(...)`, every loss
term is logged with `.item()`, and the total is built with `loss += ...` on the
output of `BCELoss`. Each of these looks like a lint target but is right: the
teacher is meant to be a fixed target that receives no gradient, the EMA update
runs after `optimizer.step()` on tensors no recorded op still needs, `.item()` only
feeds the meters, and BCELoss does not save its output for backward. The asserts
show that the student gets gradient from every term, the teacher gets none but
follows the student through the EMA, and the classification loss falls.
"""
import copy
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch

from mean_teacher import CRNN, train_epoch

torch.manual_seed(0)
torch.set_num_threads(1)

n_clips, frames, mels, n_classes = 48, 20, 16, 3
onsets = torch.randint(0, frames - 6, (n_clips, n_classes))
active = torch.rand(n_clips, n_classes) > 0.5
target = torch.zeros(n_clips, frames, n_classes)
features = 0.3 * torch.randn(n_clips, frames, mels)
for c in range(n_clips):
    for k in range(n_classes):
        if active[c, k]:
            t0 = onsets[c, k]
            target[c, t0:t0 + 6, k] = 1.0
            features[c, t0:t0 + 6, 4 * k:4 * k + 4] += 1.5

def batches():
    out = []
    for i in range(0, n_clips, 12):
        x = features[i:i + 12]
        out.append((x + 0.05 * torch.randn_like(x), x + 0.05 * torch.randn_like(x), target[i:i + 12]))
    return out

weak_mask = torch.zeros(12, dtype=torch.bool); weak_mask[:6] = True
strong_mask = ~weak_mask

model = CRNN(mels, n_classes)
ema_model = copy.deepcopy(model)
for p in ema_model.parameters():
    p.detach_()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

teacher_before = [p.clone() for p in ema_model.parameters()]
history = []
for epoch in range(25):
    meters = train_epoch(batches(), model, ema_model, opt, epoch, weak_mask, strong_mask)
    history.append(sum(meters["strong"]) / len(meters["strong"]))

assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
assert all(p.grad is None for p in ema_model.parameters()), "teacher must stay out of autograd"
assert any(not torch.equal(a, b) for a, b in zip(teacher_before, ema_model.parameters())), "EMA updates teacher"
gap = max((a - b).abs().max().item() for a, b in zip(model.parameters(), ema_model.parameters()))
assert gap < 0.5, gap
assert history[-1] < 0.6 * history[0], history
print(f"strong BCE {history[0]:.3f} -> {history[-1]:.3f}; student/teacher max gap {gap:.3f}")
print("OK: detached teacher, in-place EMA and .item() logging are all intended")
