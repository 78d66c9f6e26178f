"""
expect: GL003 main.py:28
dynamic: confirm
source: kinds check 49, kind 4

A demand-forecasting trainer computes its quantile loss through a handed
criterion inside `with torch.no_grad():` (pasted from the validation code),
then forces `loss.requires_grad_()` so `backward()` stops complaining. The
loss is a leaf with no graph back to the model: the parameters get no
gradient and never change, while the intended version does train.
"""
import torch
import torch.nn as nn

from criteria import QuantileCriterion


class ForecastTrainer:
    def __init__(self, model, criterion, lr=0.05):
        self.model = model
        self.criterion = criterion
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)

    def fit_batch(self, batch):
        self.opt.zero_grad()
        with torch.no_grad():
            loss = self.criterion.compute(self.model, batch)
        loss.requires_grad_()
        loss.backward()
        self.opt.step()
        return loss.item()


torch.manual_seed(6)
batch = (torch.randn(40, 5), torch.randn(40))
net = nn.Sequential(nn.Linear(5, 12), nn.ReLU(), nn.Linear(12, 1))
ref_net = nn.Sequential(nn.Linear(5, 12), nn.ReLU(), nn.Linear(12, 1))
ref_net.load_state_dict(net.state_dict())
before = [p.detach().clone() for p in net.parameters()]

tr = ForecastTrainer(net, QuantileCriterion())
for _ in range(3):
    tr.fit_batch(batch)
assert all(p.grad is None for p in net.parameters())
assert all(torch.equal(b, p) for b, p in zip(before, net.parameters()))

crit, opt = QuantileCriterion(), torch.optim.SGD(ref_net.parameters(), lr=0.05)
for _ in range(3):
    opt.zero_grad()
    crit.compute(ref_net, batch).backward()
    opt.step()
assert any(not torch.equal(b, p) for b, p in zip(before, ref_net.parameters()))
print("ok: no_grad loss trains nothing; intended version trains")
