"""
expect: none
dynamic: dismiss
source: kind A

A tabular house-price regressor is fit by a helper whose `robust` flag chooses between
L1 and MSE loss in a conditional expression. The program calls it both ways; on both calls
every layer receives a gradient and its weights change, so neither path loses training signal.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PriceModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, rows):
        return self.body(rows).squeeze(-1)


def fit(model, opt, rows, prices, robust):
    for _ in range(4):
        opt.zero_grad()
        pred = model(rows)
        loss = F.l1_loss(pred, prices) if robust else F.mse_loss(pred, prices)
        loss.backward()
        opt.step()


for robust in (True, False):
    torch.manual_seed(1)
    model = PriceModel()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    rows = torch.randn(33, 10)
    prices = rows @ torch.randn(10) + 0.1 * torch.randn(33)
    before = [p.detach().clone() for p in model.parameters()]
    fit(model, opt, rows, prices, robust)
    for p, b in zip(model.parameters(), before):
        assert p.grad is not None
        assert not torch.equal(p, b)
print("a3 ok")
