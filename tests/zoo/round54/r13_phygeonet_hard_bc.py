"""
expect: none
dynamic: dismiss
source: https://github.com/Jianxun-Wang/phygeonet/blob/cb146bcf25dd161d89046281217087c139cba632/case0/case0_main.py

A physics-constrained CNN surrogate for a steady heat (Laplace) problem: the network predicts the
interior of the field, a ConstantPad2d adds a one-cell frame, and the boundary values are then
imposed by writing into the padded output in place (hard Dirichlet conditions, corners averaged
from their neighbours) before finite differences build the PDE residual. The writes look like the
classic in-place error, but the padding op saves nothing for backward and the slicing reads do
not save the tensor's data, so autograd accepts them and the gradient is exact. The asserts
compare every parameter gradient with an out-of-place version of the same boundary conditions
(identical), and check that the residual loss falls during training.
"""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

NY, NX, PAD = 12, 12, 1
h = 1.0 / (NX - 1)


class Surrogate(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 1, 3, padding=1),
        )

    def forward(self, x):
        return self.net(x)


udfpad = nn.ConstantPad2d([PAD, PAD, PAD, PAD], 0)


def impose_bc_inplace(output):
    out_pad = udfpad(output)
    v = out_pad[:, 0, :, :].reshape(out_pad.shape[0], 1, out_pad.shape[2], out_pad.shape[3])
    for j in range(v.shape[0]):
        v[j, 0, -PAD:, PAD:-PAD] = 0
        v[j, 0, :PAD, PAD:-PAD] = 1
        v[j, 0, PAD:-PAD, -PAD:] = 1
        v[j, 0, PAD:-PAD, 0:PAD] = 1
        v[j, 0, 0, 0] = 0.5 * (v[j, 0, 0, 1] + v[j, 0, 1, 0])
        v[j, 0, 0, -1] = 0.5 * (v[j, 0, 0, -2] + v[j, 0, 1, -1])
    return v


def impose_bc_outofplace(output):
    v = udfpad(output)
    rows = torch.arange(v.shape[2]).view(-1, 1).expand(v.shape[2], v.shape[3])
    cols = torch.arange(v.shape[3]).view(1, -1).expand(v.shape[2], v.shape[3])
    interior_cols = (cols >= PAD) & (cols < v.shape[3] - PAD)
    interior_rows = (rows >= PAD) & (rows < v.shape[2] - PAD)
    bottom = (rows >= v.shape[2] - PAD) & interior_cols
    top = (rows < PAD) & interior_cols
    sides = interior_rows & ((cols >= v.shape[3] - PAD) | (cols < PAD))
    v = torch.where(bottom, torch.zeros_like(v), v)
    v = torch.where(top | sides, torch.ones_like(v), v)
    c0 = 0.5 * (v[:, :, 0, 1] + v[:, :, 1, 0])
    c1 = 0.5 * (v[:, :, 0, -2] + v[:, :, 1, -1])
    first_row = torch.cat([c0.unsqueeze(-1), v[:, :, 0, 1:-1], c1.unsqueeze(-1)], dim=-1)
    return torch.cat([first_row.unsqueeze(2), v[:, :, 1:, :]], dim=2)


def laplace_residual(v):
    lap = (v[:, :, 2:, 1:-1] + v[:, :, :-2, 1:-1] + v[:, :, 1:-1, 2:] + v[:, :, 1:-1, :-2]
           - 4 * v[:, :, 1:-1, 1:-1]) / h ** 2
    return (lap ** 2).mean() * h ** 4


coords = torch.rand(2, 1, NY - 2 * PAD, NX - 2 * PAD)
model = Surrogate()
twin = copy.deepcopy(model)

loss_a = laplace_residual(impose_bc_inplace(model(coords)))
loss_a.backward()
loss_b = laplace_residual(impose_bc_outofplace(twin(coords)))
loss_b.backward()
assert torch.allclose(loss_a, loss_b)
for p, q in zip(model.parameters(), twin.parameters()):
    assert p.grad is not None and p.grad.abs().sum() > 0
    assert torch.allclose(p.grad, q.grad, atol=1e-7), "in-place BCs give the exact gradient"

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
first = None
for it in range(150):
    opt.zero_grad()
    loss = laplace_residual(impose_bc_inplace(model(coords)))
    loss.backward()
    opt.step()
    first = loss.item() if first is None else first
assert loss.item() < 0.5 * first, (first, loss.item())
print("PDE residual %.2e -> %.2e with hard boundary conditions" % (first, loss.item()))
