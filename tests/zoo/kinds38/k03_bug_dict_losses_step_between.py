"""
expect: GL005 39
dynamic: confirm
source: kinds check 38, kind 2

A tabular multi-task model returns its losses in a dict filled key by key;
both the price and churn losses run through a two-layer shared trunk. The
training function backprops the price loss, steps the optimizer that owns the
trunk (editing weights saved in the churn graph in place), then backprops the
churn loss, which fails with an in-place modification error.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MultiTask(nn.Module):
    def __init__(self, d=12, h=24):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU())
        self.price_head = nn.Linear(h, 1)
        self.churn_head = nn.Linear(h, 1)

    def forward(self, x, price, churn):
        z = self.trunk(x)
        losses = {}
        losses["price"] = F.mse_loss(self.price_head(z).squeeze(-1), price)
        losses["churn"] = F.binary_cross_entropy_with_logits(
            self.churn_head(z).squeeze(-1), churn)
        return losses


def train_step(model, opt, x, price, churn):
    losses = model(x, price, churn)
    opt.zero_grad()
    losses["price"].backward(retain_graph=True)
    opt.step()
    losses["churn"].backward()
    return losses


model = MultiTask()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(32, 12)
price = torch.randn(32)
churn = torch.randint(0, 2, (32,)).float()

try:
    train_step(model, opt, x, price, churn)
except RuntimeError as e:
    msg = str(e)
else:
    msg = ""
assert "modified by an inplace operation" in msg, msg
print("ok: second backward fails after opt.step() edited the shared trunk")
