"""
expect: none
dynamic: dismiss
source: kinds check 22, kind 7 (written for this check)

A molecular-property MLP uses residual blocks whose branch starts with ReLU(inplace=True),
but the forward calls the branch first, on the output of a Linear that saved nothing,
and only then the shortcut. The asserts show backward succeeds and every parameter trains.
"""
import torch
import torch.nn as nn


class ResidualDense(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.branch = nn.Sequential(nn.ReLU(inplace=True), nn.Linear(d_in, d_out), nn.ReLU(), nn.Linear(d_out, d_out))
        self.skip = nn.Linear(d_in, d_out)

    def forward(self, x):
        return self.branch(x) + self.skip(x)


class PropertyRegressor(nn.Module):
    def __init__(self, n_bits=64):
        super().__init__()
        self.embed = nn.Linear(n_bits, 32)
        self.res = ResidualDense(32, 16)
        self.out = nn.Linear(16, 1)

    def forward(self, fingerprints):
        return self.out(self.res(self.embed(fingerprints))).squeeze(-1)


torch.manual_seed(14)
fps = (torch.rand(24, 64) < 0.2).float()
logp = torch.randn(24)
model = PropertyRegressor()
nn.functional.mse_loss(model(fps), logp).backward()
for name, p in model.named_parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0, name
print("ok: every parameter trains")
