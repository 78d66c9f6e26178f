"""expect: GL002 helpers.py:16
dynamic: confirm
source: https://github.com/speechbrain/speechbrain/issues/735

Two files. `helpers.Scorer` (a plain class, not a Module) returns `torch.tensor(loss.item(), requires_grad=True)` (expected finding: helpers.py line 16), the same workaround as the linked issue's `Variable(loss, requires_grad=True)` for "element 0 of tensors does not require grad". The tensor handed back is a new leaf holding a number, so this file's `loss.backward()` reaches no parameter of the model: .grad stays None.
"""
import torch
import torch.nn as nn

from helpers import Scorer

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scorer = Scorer()
x, y = torch.randn(40, 12), torch.randint(0, 4, (40,))
for _ in range(5):
    loss = scorer(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("average loss", scorer.average())
print("model grad:", model[0].weight.grad)
