"""
expect: none
dynamic: dismiss
source: kinds check 54, kind 4

Land-cover classification: run_epoch calls NLLOnProbs.accuracy after the optimizer step,
and accuracy rounds a detached clone, so the softmax output used by backward is intact.
"""
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F
from engine import run_epoch
from scoring import NLLOnProbs

torch.manual_seed(4)
model = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 4), nn.Softmax(dim=1))
ref = copy.deepcopy(model)
x, y = torch.randn(40, 12), torch.randint(0, 4, (40,))
F.nll_loss(ref(x).clamp_min(1e-8).log(), y).backward()
opt = torch.optim.SGD(model.parameters(), lr=0.0)
run_epoch(model, NLLOnProbs(), opt, [(x, y)])
assert torch.allclose(model[0].weight.grad, ref[0].weight.grad, atol=1e-6)
print("ok: gradient matches")
