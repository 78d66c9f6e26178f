"""
expect: GL002 30
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/59800

The report: after adding a hand-written weighted MSE (undamaged pixels vs damaged pixels weighted
10x) the console showed "To copy construct from a tensor ... rather than torch.tensor(sourceTensor)"
from a line `value = torch.tensor(value, device=device, dtype=torch.float)` and the loss curve went
flat. This program rebuilds that: the training step passes the weighted loss through a helper that
normalises it with torch.tensor(...) before backward. The asserts show every conv weight gets grad
None and is unchanged after several steps, while the same step without the rebuild changes them.
"""
import warnings

import torch
import torch.nn as nn

warnings.filterwarnings("ignore", message="To copy construct")


def weighted_mse(y, pred, undamaged, damaged, weight=10.0):
    n_und = (undamaged != 0).sum()
    n_dam = (damaged == 1).sum()
    out_und = (((y - pred) ** 2) * undamaged).sum() / n_und
    out_dam = (((y - pred) ** 2) * damaged).sum() / n_dam * weight
    return out_und + out_dam


def as_float_scalar(value, device):
    return torch.tensor(value, device=device, dtype=torch.float, requires_grad=True)


class SegNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))

    def forward(self, x):
        return torch.sigmoid(self.body(x))


def train(rebuild, steps=4):
    torch.manual_seed(0)
    model = SegNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x = torch.randn(2, 3, 16, 16)
    y = (torch.rand(2, 1, 16, 16) > 0.7).float()
    damaged = (torch.rand(2, 1, 16, 16) > 0.8).float()
    undamaged = 1.0 - damaged
    w0 = model.body[0].weight.detach().clone()
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = weighted_mse(y, model(x), undamaged, damaged)
        if rebuild:
            loss = as_float_scalar(loss, x.device)
        loss.backward()
        if rebuild:
            assert all(p.grad is None for p in model.parameters())
        opt.step()
        losses.append(loss.item())
    return torch.equal(w0, model.body[0].weight), losses


frozen, losses = train(rebuild=True)
assert frozen, "with the rebuilt scalar no conv weight may move"
assert len(set(round(v, 6) for v in losses)) == 1, losses  # flat curve, as in the report
moved, good = train(rebuild=False)
assert not moved and good[-1] < good[0]
print("ok: loss rebuilt with torch.tensor() trains nothing; flat loss", losses[0])
