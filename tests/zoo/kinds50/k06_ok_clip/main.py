"""
expect: none
dynamic: dismiss
source: kinds check 50, kind 3

Demand forecaster with a projected-gradient constraint: the helper clamps a column slice
of the weight in place, but it is called only after optimizer.step() and under
torch.no_grad(), so no saved tensor of a pending backward is touched.
"""
import torch
import torch.nn as nn
from projection import clip_bias_column

torch.manual_seed(5)
layer = nn.Linear(6, 1)
opt = torch.optim.SGD(layer.parameters(), lr=0.1)
x = torch.cat([torch.ones(200, 1), torch.randn(200, 5)], 1)
y = 3.0 * x[:, :1] + x[:, 1:2] - x[:, 3:4]
first = None
for _ in range(100):
    opt.zero_grad()
    loss = ((layer(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    with torch.no_grad():
        clip_bias_column(layer.weight, 1.0)
    first = loss.item() if first is None else first
assert layer.weight[:, 0].abs().max() <= 1.0 + 1e-6
assert loss.item() < 0.5 * first, (first, loss.item())
print("k06 ok:", first, "->", loss.item())
