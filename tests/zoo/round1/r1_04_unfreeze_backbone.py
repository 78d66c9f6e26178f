"""expect: none
dynamic: dismiss
source: https://github.com/open-mmlab/mmdetection/issues/7273

Freeze, then unfreeze: the backbone is frozen with `backbone.requires_grad_(False)` while the new head warms up, and later unfrozen with `backbone.requires_grad_(True)`, as asked in the linked issue. `requires_grad_` on an nn.Module flips its parameters, which are leaves; nothing was computed under no_grad, and after unfreezing the backbone's weights move.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
backbone = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())
head = nn.Linear(16, 3)
x = torch.randn(64, 8)
y = torch.randint(0, 3, (64,))

backbone.requires_grad_(False)
opt = torch.optim.SGD(head.parameters(), lr=0.1)
for _ in range(5):
    loss = F.cross_entropy(head(backbone(x)), y)
    opt.zero_grad()
    loss.backward()
    opt.step()

before = backbone[0].weight.clone()
backbone.requires_grad_(True)
opt.add_param_group({"params": backbone.parameters(), "lr": 0.05})
for _ in range(5):
    loss = F.cross_entropy(head(backbone(x)), y)
    opt.zero_grad()
    loss.backward()
    opt.step()

moved = (backbone[0].weight - before).abs().max().item()
print("backbone moved after unfreezing by", moved)
assert moved > 0
