"""
expect: none
dynamic: dismiss
source: kinds check 33, kind 4

A plain-class occupancy loss for a weather-radar nowcaster squashes logits
with torch.sigmoid and zeroes low-confidence cells, but on a clone of the
sigmoid output, so the tensor saved for sigmoid's backward stays untouched
and training backpropagates normally.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class GatedOccupancyLoss:
    def __init__(self, floor=0.3):
        self.floor = floor

    def __call__(self, logits):
        occ = torch.sigmoid(logits)
        gated = occ.clone()
        gated[occ < self.floor] = 0.0
        return (1.0 - gated).pow(2).mean()


nowcaster = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 16))
radar = torch.randn(12, 16)
loss_obj = GatedOccupancyLoss()

loss_obj(nowcaster(radar)).backward()

assert all(p.grad is not None for p in nowcaster.parameters())
assert nowcaster[0].weight.grad.abs().sum() > 0
print("ok: backward succeeded through the gated clone")
