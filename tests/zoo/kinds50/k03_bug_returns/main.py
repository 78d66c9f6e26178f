"""
expect: GL002 pricing_net.py:19
dynamic: confirm
source: kinds check 50, kind 2

Portfolio scorer: the model's forward goes through NumPy to build a normalised
cumulative-return path and converts back with torch.from_numpy, so training through the
model's output only reaches the final `score` layer; `daily` never gets a gradient.
"""
import torch
from pricing_net import ReturnPathNet

torch.manual_seed(2)
net = ReturnPathNet()
opt = torch.optim.SGD(net.parameters(), lr=0.05)
x = torch.randn(128, 5)
y = x[:, :1] - 0.5 * x[:, 2:3]
daily_before = net.daily.weight.detach().clone()
score_before = net.score.weight.detach().clone()
for _ in range(30):
    opt.zero_grad()
    loss = ((net(x) - y) ** 2).mean()
    loss.backward()
    assert net.daily.weight.grad is None
    opt.step()
assert torch.equal(net.daily.weight, daily_before), "daily layer should be frozen by the bug"
assert not torch.equal(net.score.weight, score_before)

# intended torch version of the same forward gives `daily` a gradient
r = torch.tanh(net.daily(x))
path = torch.cumsum(r, 1)
path = path / (path.abs().amax(1, keepdim=True) + 1e-6)
((net.score(path) - y) ** 2).mean().backward()
assert net.daily.weight.grad is not None and net.daily.weight.grad.abs().sum() > 0
print("k03 ok: numpy round-trip froze the daily layer")
