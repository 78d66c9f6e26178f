"""expect: none
dynamic: dismiss
source: https://github.com/MIC-DKFZ/nnUNet/issues/1277

Deep supervision with one auxiliary output per decoder level. The fixed level weights
(1, 1/2, 1/4, normalised) are plain Python floats packed with torch.tensor, which is
correct because they are constants. The per-level loss tensors themselves are joined
with torch.cat of 1-element views, which autograd records, so every auxiliary head and
the shared trunk receive gradients.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def build(levels=3, width=10):
    trunk = nn.ModuleList([nn.Linear(4 if i == 0 else width, width) for i in range(levels)])
    heads = nn.ModuleList([nn.Linear(width, 1) for _ in range(levels)])
    return trunk, heads


def supervised_loss(trunk, heads, x, y):
    raw = [0.5 ** i for i in range(len(heads))]
    level_w = torch.tensor([w / sum(raw) for w in raw])
    h, per_level = x, []
    for layer, head in zip(trunk, heads):
        h = torch.relu(layer(h))
        per_level.append(F.mse_loss(head(h).squeeze(-1), y).view(1))
    return (level_w * torch.cat(per_level)).sum()


torch.manual_seed(8)
trunk, heads = build()
opt = torch.optim.SGD(list(trunk.parameters()) + list(heads.parameters()), lr=0.1)
x, y = torch.randn(24, 4), torch.randn(24)
opt.zero_grad()
loss = supervised_loss(trunk, heads, x, y)
loss.backward()
opt.step()

assert all(h.weight.grad is not None for h in heads)
assert all(l.weight.grad is not None for l in trunk)
print("every level trained; loss", loss.item())
