"""
expect: GL002 fairness.py:25
dynamic: confirm
source: https://github.com/szandala/fair-deepfake-detection-toolbox/blob/8a8c2f3bab7317d7c0baadb3ed9439fa6aa0b7fd/helpers/train_inprocess_fairness.py

The original in-processing fairness script trains a real/fake face classifier with cross-entropy
plus a "fairness loss". The fairness loss takes the argmax predictions to NumPy, computes per-race
TPR/FPR/PPV/NPV parity ratios there, and rebuilds the number with torch.tensor(...) before adding
it to the cross-entropy. The rebuilt tensor has no history, so the sum backpropagates exactly like
the cross-entropy alone: the parity term only shifts the loss value and never pushes the model
toward equal error rates. Here fairness.py keeps that mechanism (NumPy group rates, tensor rebuild)
and main.py runs the training. The asserts show the gradient of CE + penalty equals the gradient of
CE alone, that the penalty tensor is a leaf with no grad_fn, and that a differentiable group-rate
penalty on probabilities (the fix) does change the gradient and shrinks the gap between groups.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from fairness import parity_penalty, soft_parity_penalty

torch.manual_seed(0)
torch.set_num_threads(1)
np.random.seed(0)

N, D = 256, 8
groups = np.random.randint(0, 2, size=N)
x = torch.randn(N, D)
x[:, 0] = torch.tensor(groups, dtype=torch.float32)  # sensitive attribute is an input feature
y = ((0.7 * x[:, 1] + 1.5 * x[:, 0] + 0.5 * torch.randn(N)) > 0.8).long()
groups_t = torch.tensor(groups)


def make_model():
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(D, 16), nn.ReLU(), nn.Linear(16, 2))


def gap(model):
    with torch.no_grad():
        p = F.softmax(model(x), 1)[:, 1]
    g = []
    for yy in (0, 1):
        r = [p[(groups_t == k) & (y == yy)].mean().item() for k in (0, 1)]
        g.append(abs(r[0] - r[1]))
    return sum(g)


def train(fixed, steps=150, lam=4.0):
    model = make_model()
    opt = torch.optim.Adam(model.parameters(), lr=0.02)
    for _ in range(steps):
        opt.zero_grad()
        logits = model(x)
        ce = F.cross_entropy(logits, y)
        if fixed:
            fair = soft_parity_penalty(y, F.softmax(logits, 1)[:, 1], groups_t)
        else:
            _, preds = torch.max(logits, 1)
            fair = parity_penalty(y, preds, groups)
        total = ce + lam * fair
        total.backward()
        opt.step()
    return model


# one step: the parity term contributes nothing to the gradient
model = make_model()
logits = model(x)
_, preds = torch.max(logits, 1)
pen = parity_penalty(y, preds, groups)
assert pen.grad_fn is None and not pen.requires_grad
assert pen.item() > 0.0
g_total = torch.autograd.grad(F.cross_entropy(logits, y) + 4.0 * pen, model[0].weight, retain_graph=True)[0]
g_ce = torch.autograd.grad(F.cross_entropy(logits, y), model[0].weight, retain_graph=True)[0]
assert torch.allclose(g_total, g_ce)

soft = soft_parity_penalty(y, F.softmax(logits, 1)[:, 1], groups_t)
g_fix = torch.autograd.grad(F.cross_entropy(logits, y) + 4.0 * soft, model[0].weight)[0]
assert not torch.allclose(g_fix, g_ce)

# training: buggy run ends like plain CE training, fixed run narrows the group gap
buggy = train(fixed=False)
fixed = train(fixed=True)
ce_only = make_model()
opt = torch.optim.Adam(ce_only.parameters(), lr=0.02)
for _ in range(150):
    opt.zero_grad()
    F.cross_entropy(ce_only(x), y).backward()
    opt.step()
for pb, pc in zip(buggy.parameters(), ce_only.parameters()):
    assert torch.allclose(pb, pc, atol=1e-6)
assert gap(fixed) < 0.5 * gap(buggy), (gap(fixed), gap(buggy))
print("ok: rebuilt parity penalty adds no gradient; differentiable penalty reduces gap",
      round(gap(buggy), 3), "->", round(gap(fixed), 3))
