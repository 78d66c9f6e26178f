"""
expect: GL005 35
dynamic: confirm
source: https://github.com/cornellius-gp/gpytorch/pull/1203

The report: GPyTorch's symmetric-eigendecomposition helper clamped the eigenvalues in place with
`clamp_min_`, which "fails to have a correct backwards call"; the PR replaced it with the
out-of-place clamp. This program rebuilds a root-decomposition step of an exact GP marginal
likelihood with a learnable RBF lengthscale and noise: the eigenvalues returned by
torch.linalg.eigh, which eigh saves for its backward, are clamped in place. The asserts catch the
"modified by an inplace operation" RuntimeError on backward, and show that the out-of-place clamp
gives the hyperparameters gradients and lowers the negative log marginal likelihood.
"""
import math

import torch
import torch.nn as nn


class RBFKernelGP(nn.Module):
    def __init__(self):
        super().__init__()
        self.raw_lengthscale = nn.Parameter(torch.tensor(0.0, dtype=torch.float64))
        self.raw_noise = nn.Parameter(torch.tensor(-1.0, dtype=torch.float64))

    def covar(self, x):
        ls = nn.functional.softplus(self.raw_lengthscale)
        d2 = (x[:, None] - x[None, :]) ** 2
        return torch.exp(-0.5 * d2 / ls ** 2) + nn.functional.softplus(self.raw_noise) * torch.eye(len(x), dtype=x.dtype)


def symeig_root(mat, inplace):
    evals, evecs = torch.linalg.eigh(mat)
    if inplace:
        evals.clamp_min_(1e-7)
    else:
        evals = evals.clamp_min(1e-7)
    return evals, evecs


def neg_mll(model, x, y, inplace):
    evals, evecs = symeig_root(model.covar(x), inplace)
    alpha = evecs.t() @ y
    quad = (alpha ** 2 / evals).sum()
    return 0.5 * (quad + evals.log().sum() + len(x) * math.log(2 * math.pi)) / len(x)


torch.manual_seed(0)
x = torch.linspace(0, 6, 12, dtype=torch.float64)
y = torch.sin(2 * x) + 0.1 * torch.randn(12, dtype=torch.float64)

model = RBFKernelGP()
loss = neg_mll(model, x, y, inplace=True)
try:
    loss.backward()
    raise AssertionError("expected the in-place error")
except RuntimeError as err:
    assert "inplace" in str(err), err
assert model.raw_lengthscale.grad is None

model = RBFKernelGP()
opt = torch.optim.Adam(model.parameters(), lr=0.02)
first = None
for _ in range(10):
    opt.zero_grad()
    loss = neg_mll(model, x, y, inplace=False)
    loss.backward()
    first = loss.item() if first is None else first
    opt.step()
assert model.raw_lengthscale.grad is not None and loss.item() < first
print("ok: clamp_min_ on eigh's saved eigenvalues breaks backward; out-of-place clamp trains")
