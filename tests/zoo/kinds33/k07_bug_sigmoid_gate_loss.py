"""
expect: GL005 23
dynamic: confirm
source: kinds check 33, kind 4

A plain-class occupancy loss for a weather-radar nowcaster squashes logits
with torch.sigmoid (whose backward reuses its own output) and then zeroes
low-confidence cells directly in that output. backward() then finds the
saved sigmoid result at a newer version and raises.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class GatedOccupancyLoss:
    def __init__(self, floor=0.3):
        self.floor = floor

    def __call__(self, logits):
        occ = torch.sigmoid(logits)
        occ[occ < self.floor] = 0.0
        return (1.0 - occ).pow(2).mean()


nowcaster = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 16))
radar = torch.randn(12, 16)
loss_obj = GatedOccupancyLoss()

try:
    loss_obj(nowcaster(radar)).backward()
    raised = None
except RuntimeError as err:
    raised = str(err)

assert raised is not None, "backward should fail after editing the sigmoid output"
assert "modified by an inplace operation" in raised, raised
print("ok: backward raised:", raised.splitlines()[0][:90])
