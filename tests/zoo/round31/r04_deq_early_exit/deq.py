import torch
import torch.nn as nn


def fixed_point(f, z0, max_iter=30, tol=1e-4):
    z = z0
    for k in range(max_iter):
        z_next = f(z)
        res = (z_next - z).norm() / (z_next.norm() + 1e-9)
        z = z_next
        if res < tol:
            break
    return z, res.item(), k


class DEQLayer(nn.Module):
    def __init__(self, dim, tol=1e-4):
        super().__init__()
        self.lin = nn.Linear(dim, dim)
        self.inj = nn.Linear(dim, dim)
        self.tol = tol

    def cell(self, z, x):
        return torch.tanh(0.5 * self.lin(z) + self.inj(x))

    def forward(self, x, z_init=None):
        z0 = torch.zeros_like(x) if z_init is None else z_init
        with torch.no_grad():
            z_star, self.res, self.steps = fixed_point(lambda z: self.cell(z, x), z0, tol=self.tol)
        if self.res < self.tol:
            return z_star
        return self.cell(z_star, x)
