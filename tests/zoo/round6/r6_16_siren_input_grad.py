"""expect: none
dynamic: dismiss
source: https://github.com/vsitzmann/siren/issues/12

SIREN fitted to an image *and* its spatial gradient (the "explore_siren"
notebook pattern). The model's forward does
coords = coords.clone().detach().requires_grad_(True) so that the loss can
differentiate the output with respect to the input coordinates. The detached
tensor is the network input built from a fixed coordinate grid, not a value
computed from trainable parameters, so re-enabling requires_grad on it cuts
nothing: all sine-layer weights receive gradients through the value and the
gradient-matching terms.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SineLayer(nn.Module):
    def __init__(self, n_in, n_out, omega_0=30.0, first=False):
        super().__init__()
        self.omega_0 = omega_0
        self.linear = nn.Linear(n_in, n_out)
        bound = 1 / n_in if first else math.sqrt(6 / n_in) / omega_0
        nn.init.uniform_(self.linear.weight, -bound, bound)

    def forward(self, x):
        return torch.sin(self.omega_0 * self.linear(x))


class Siren(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(SineLayer(2, hidden, first=True), SineLayer(hidden, hidden), nn.Linear(hidden, 1))

    def forward(self, coords):
        coords = coords.clone().detach().requires_grad_(True)   # allows derivative w.r.t. input
        return self.net(coords), coords


def get_mgrid(side):
    lin = torch.linspace(-1, 1, side)
    return torch.stack(torch.meshgrid(lin, lin, indexing="ij"), dim=-1).reshape(-1, 2)


def spatial_gradient(y, x):
    return torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y), create_graph=True)[0]


if __name__ == "__main__":
    torch.manual_seed(0)
    coords = get_mgrid(8)
    target = torch.sin(3 * coords[:, :1]) * torch.cos(2 * coords[:, 1:])
    target_grad = torch.cat([3 * torch.cos(3 * coords[:, :1]) * torch.cos(2 * coords[:, 1:]),
                             -2 * torch.sin(3 * coords[:, :1]) * torch.sin(2 * coords[:, 1:])], dim=1)
    model = Siren()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    for _ in range(2):
        optimizer.zero_grad()
        out, model_coords = model(coords)
        loss = F.mse_loss(out, target) + 0.1 * F.mse_loss(spatial_gradient(out, model_coords), target_grad)
        loss.backward()
        optimizer.step()
    for name, p in model.named_parameters():
        assert p.grad is not None and p.grad.abs().sum() > 0, name
    print("OK: detach().requires_grad_() on the input grid is harmless; all weights train")
