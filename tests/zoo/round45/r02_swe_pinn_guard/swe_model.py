"""Steady shallow-water PINN (h, u, v) with per-term losses collected by compute_total_loss."""
import torch
import torch.nn as nn


def _connected(term):
    # Ensure the loss term is connected to the graph
    if not term.requires_grad:
        term = term.detach().requires_grad_(True)
    return term


class SWEPINN(nn.Module):
    def __init__(self, use_pde=True, use_extent=True, h_dry=0.05, hidden=32):
        super().__init__()
        self.use_pde = use_pde
        self.use_extent = use_extent
        self.h_dry = h_dry
        self.net = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
                                 nn.Linear(hidden, 3))
        self.weights = {"pde": 1.0, "extent": 10.0}

    def forward(self, xy):
        out = self.net(xy)
        return out[:, 0:1], out[:, 1:2], out[:, 2:3]

    def compute_pde_loss(self, xy):
        xy = xy.clone().requires_grad_(True)
        h, u, v = self(xy)
        dhu = torch.autograd.grad((h * u).sum(), xy, create_graph=True)[0][:, 0:1]
        dhv = torch.autograd.grad((h * v).sum(), xy, create_graph=True)[0][:, 1:2]
        return ((dhu + dhv) ** 2).mean()                   # steady continuity residual

    def wet_indicator(self, h):
        return (h > self.h_dry).float()                    # observed flood maps are binary wet/dry

    def compute_extent_loss(self, xy_obs, wet_obs):
        h, _, _ = self(xy_obs)
        return ((self.wet_indicator(h) - wet_obs) ** 2).mean()

    def compute_total_loss(self, xy_col, xy_obs, wet_obs):
        terms = {}
        if self.use_pde:
            terms["pde"] = _connected(self.compute_pde_loss(xy_col))
        if self.use_extent:
            terms["extent"] = _connected(self.compute_extent_loss(xy_obs, wet_obs))
        total = sum(self.weights[k] * v for k, v in terms.items())
        return total, {k: v.item() for k, v in terms.items()}
