"""
expect: none
dynamic: dismiss
source: kinds check 38, kind 2

Same dict-of-losses multi-task model, but the optimizer stepped between the
two backward calls holds only the price head, which the churn loss never
reads. The trunk and churn head are stepped by a second optimizer after both
backward passes, so nothing saved in the churn graph is edited.
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


def train_step(model, head_opt, body_opt, x, price, churn):
    losses = model(x, price, churn)
    head_opt.zero_grad()
    body_opt.zero_grad()
    losses["price"].backward(retain_graph=True)
    head_opt.step()
    losses["churn"].backward()
    body_opt.step()
    return losses


model = MultiTask()
head_opt = torch.optim.SGD(model.price_head.parameters(), lr=0.1, momentum=0.9)
body_opt = torch.optim.SGD(
    list(model.trunk.parameters()) + list(model.churn_head.parameters()), lr=0.1)
x = torch.randn(32, 12)
price = torch.randn(32)
churn = torch.randint(0, 2, (32,)).float()

w_before = model.trunk[2].weight.detach().clone()
losses = train_step(model, head_opt, body_opt, x, price, churn)
assert not torch.equal(w_before, model.trunk[2].weight.detach())
assert all(p.grad is not None for p in model.churn_head.parameters())
print("ok: both backward passes succeed; trunk updated", {k: v.item() for k, v in losses.items()})
