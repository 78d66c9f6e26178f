"""
expect: GL005 main.py:28
dynamic: confirm
source: kinds check 55, kind 5

Fraud classifier over card transactions. Before backward, the step logs how
many rows are flagged through metrics.flagged_count, handing it a column view
of the softmax output; the helper thresholds `scores.data` in place, which
rewrites the probabilities saved by softmax and log without bumping any version
counter, so backward silently returns a wrong gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from metrics import flagged_count

torch.manual_seed(0)
clf = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 2))
tx = torch.randn(40, 20)
is_fraud = torch.randint(0, 2, (40,))


def step(log_flags):
    clf.zero_grad()
    probs = clf(tx).softmax(dim=-1)
    loss = F.nll_loss(probs.log(), is_fraud)
    if log_flags:
        n_flagged = flagged_count(probs[:, 1])
        print("flagged", n_flagged)
    loss.backward()
    return clf[0].weight.grad.clone()


g_logged = step(True)
g_clean = step(False)
assert not torch.allclose(g_logged, g_clean)
print("ok: logging corrupted the gradient")
