"""
expect: none
dynamic: dismiss
source: kinds check 31, kind 3

Plate dimensions (width, height, thickness) are regressed from sensor readings.
The helper that computes area then pads the other columns in place is only run
on measured ground-truth plates from the dataset; the predicted area is formed
out of place, so backward succeeds.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


def with_area(plates):
    area = plates[:, 0] * plates[:, 1]
    plates[:, 1:] += 0.01
    return torch.cat([plates, area.unsqueeze(1)], dim=1)


net = nn.Sequential(nn.Linear(9, 20), nn.ReLU(), nn.Linear(20, 3))
readings = torch.randn(24, 9)
measured = torch.rand(24, 3) + 0.5

gt = with_area(measured.clone())
pred = net(readings)
pred_area = pred[:, 0] * pred[:, 1]
pred_full = torch.cat([pred + torch.tensor([0.0, 0.01, 0.01]), pred_area.unsqueeze(1)], dim=1)
loss = nn.functional.mse_loss(pred_full, gt)
loss.backward()

assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in net.parameters())
print("ok: backward succeeded", loss.item())
