"""
expect: none
dynamic: dismiss
source: https://github.com/ultralytics/ultralytics/pull/25315

A pull request rewrote the trainer's ModelEMA.update to collect tensors and blend them in
place, dropping the old `.detach()` on the live model's tensors; a review bot flagged that
this would record the EMA update in autograd and grow a graph. The author answered that
state_dict() (keep_vars=False) already returns detached tensors, so nothing is recorded. This
look-alike does the same: in-place EMA blending of state_dict tensors with no no_grad block.
The asserts show the EMA weights never get a grad_fn, the live model keeps training with
normal backward passes, and the EMA weights track the trained ones.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from ema import ModelEMA

torch.manual_seed(0)
torch.set_num_threads(1)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 16)
        self.bn = nn.BatchNorm1d(16)
        self.fc2 = nn.Linear(16, 1)

    def forward(self, x):
        return self.fc2(F.relu(self.bn(self.fc1(x))))


x = torch.randn(64, 6)
y = x[:, :1] * 2 - x[:, 1:2]
model = Net()
ema = ModelEMA(model)
opt = torch.optim.SGD(model.parameters(), lr=0.05)

losses = []
for step in range(60):
    opt.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    ema.update(model)
    losses.append(loss.item())

for name, v in ema.ema.state_dict().items():
    assert v.grad_fn is None and not v.requires_grad, name
assert all(p.grad_fn is None for p in ema.ema.parameters())
assert losses[-1] < 0.3 * losses[0], (losses[0], losses[-1])
gap = (ema.ema.fc1.weight - model.fc1.weight).abs().max().item()
assert gap < 0.2, gap
with torch.no_grad():
    ema_loss = F.mse_loss(ema.ema(x), y).item()
assert ema_loss < losses[0], ema_loss
print("ok", losses[0], losses[-1], ema_loss, gap)
