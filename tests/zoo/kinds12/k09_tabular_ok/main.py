"""
expect: none
dynamic: dismiss
source: kind 9

A house-price model on synthetic tabular features has a price head and an auxiliary
days-on-market head whose loss goes through a running-average wrapper from another module.
The wrapper detaches only the copy it accumulates for display and returns the attached loss,
which is added to the training loss, so backward reaches the auxiliary head: its weights
change after a few steps and the displayed average has no history.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from tracking import TrackedLoss


class PriceModel(nn.Module):
    def __init__(self, features=9):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(features, 32), nn.ReLU())
        self.price = nn.Linear(32, 1)
        self.days = nn.Linear(32, 1)

    def forward(self, x):
        h = self.trunk(x)
        return self.price(h).squeeze(-1), self.days(h).squeeze(-1)


def main():
    torch.manual_seed(0)
    x = torch.randn(96, 9)
    price = x[:, 0] * 3 + x[:, 1] + 0.1 * torch.randn(96)
    days = (x[:, 2] - x[:, 3]).abs() * 10
    model = PriceModel()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    days_term = TrackedLoss(F.smooth_l1_loss, "days_l1")
    before = model.days.weight.clone()
    for _ in range(3):
        price_pred, days_pred = model(x)
        loss = F.mse_loss(price_pred, price) + 0.05 * days_term(days_pred, days)
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert model.days.weight.grad is not None
    assert not torch.equal(model.days.weight, before)
    assert not days_term.sum.requires_grad
    print("ok: auxiliary head trained; displayed average %.3f" % days_term.mean())


if __name__ == "__main__":
    main()
