"""
expect: none
dynamic: dismiss
source: kinds check 46, kind 1

A tabular price regressor adds (l2 + consistency) / 4 to its main MSE loss.
The consistency term compares the prediction on a jittered row against the
prediction on the clean row, which is detached: it is only a target, and the
jittered prediction keeps its history, so the term still trains the model.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PriceNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 24), nn.Tanh(), nn.Linear(24, 1))

    def forward(self, x):
        return self.body(x).squeeze(-1)


def train_epoch(model, opt, rows, prices):
    for i in range(0, len(rows), 32):
        x, y = rows[i:i + 32], prices[i:i + 32]
        pred = model(x)
        main = F.mse_loss(pred, y)
        l2 = sum(p.pow(2).sum() for p in model.parameters()) * 1e-4
        target = pred.detach()
        jittered = model(x + 0.05 * torch.randn_like(x))
        consistency = F.mse_loss(jittered, target)
        loss = main + (l2 + consistency) / 4
        opt.zero_grad()
        loss.backward()
        opt.step()


torch.manual_seed(1)
rows = torch.randn(128, 8)
prices = rows @ torch.randn(8) + 0.1 * torch.randn(128)
model = PriceNet()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
train_epoch(model, opt, rows, prices)

# the consistency term still reaches the parameters through `jittered`
x = rows[:32]
consistency = F.mse_loss(model(x + 0.05 * torch.randn_like(x)), model(x).detach())
assert consistency.requires_grad
g = torch.autograd.grad(consistency, model.body[0].weight)[0]
assert g.abs().sum() > 0
print("ok: consistency term trains the model")
