"""
expect: none
dynamic: dismiss
source: kinds check 54, kind 2

Sensor-series regressor: the model calls GatedMixer.encode_features on a projected
input; the method adds the conv branch out of place (h = h + ...), so backward works.
"""
import torch
import torch.nn as nn
from blocks import GatedMixer


class SeriesRegressor(nn.Module):
    def __init__(self, chans=5, dim=12):
        super().__init__()
        self.proj = nn.Linear(chans, dim)
        self.backbone = GatedMixer(dim)
        self.out = nn.Linear(dim, 1)

    def forward(self, x):
        z = self.backbone.encode_features(self.proj(x))
        return self.out(z.mean(1))


torch.manual_seed(2)
net = SeriesRegressor()
x, y = torch.randn(8, 50, 5), torch.randn(8, 1)
loss = nn.functional.mse_loss(net(x), y)
loss.backward()
assert net.proj.weight.grad is not None and net.proj.weight.grad.abs().sum() > 0
print("ok: backward fine")
