"""
expect: none
dynamic: dismiss
source: kinds check 50, kind 1

Multi-task house-price regressor: `task_losses` returns (price MSE, room-count L1) as a
tuple, and the loop stacks the tuple with torch.stack before weighting it, which keeps
the graph, so the shared trunk trains normally.
"""
import torch
import torch.nn as nn

torch.manual_seed(1)
trunk = nn.Sequential(nn.Linear(6, 16), nn.ReLU())
price_head = nn.Linear(16, 1)
rooms_head = nn.Linear(16, 1)
model = nn.ModuleList([trunk, price_head, rooms_head])
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
feats = torch.randn(64, 6)
price = feats[:, :1] * 2 + 0.1
rooms = feats[:, 1:2].abs() * 3


def task_losses(xb, yp, yr):
    z = trunk(xb)
    mse = ((price_head(z) - yp) ** 2).mean()
    l1 = (rooms_head(z) - yr).abs().mean()
    return mse, l1


weights = torch.tensor([1.0, 0.5])
first = None
for step in range(150):
    opt.zero_grad()
    stacked = torch.stack(task_losses(feats, price, rooms))
    loss = (stacked * weights).sum()
    loss.backward()
    assert trunk[0].weight.grad.abs().sum() > 0
    opt.step()
    first = loss.item() if first is None else first
assert loss.item() < 0.5 * first, (first, loss.item())
print("k02 ok:", first, "->", loss.item())
