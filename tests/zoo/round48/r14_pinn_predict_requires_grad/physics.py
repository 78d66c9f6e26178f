"""PINN for 1-D transport u_t + c u_x = s(x, t): the network, a no-grad predictor and the PDE loss."""
import torch
import torch.nn as nn


class TransportPINN(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(2, hidden), nn.Tanh(),
            nn.Linear(hidden, hidden), nn.Tanh(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x, t):
        return self.net(torch.cat([x, t], dim=1))

    @torch.no_grad()
    def predict(self, x, t):
        """Cheap inference path used for plots and for the collocation points."""
        return self(x, t)


def source(x, t):
    return torch.sin(3.0 * x) * torch.exp(-t)


def pde_loss(model, x, t, c=0.5):
    x.requires_grad = True
    t.requires_grad = True
    u_pred = model.predict(x, t).requires_grad_()
    u_t, u_x = torch.autograd.grad(
        u_pred, (t, x), torch.ones_like(u_pred),
        create_graph=True, allow_unused=True, materialize_grads=True,
    )
    residual = u_t + c * u_x - source(x, t)
    return nn.MSELoss()(residual, torch.zeros_like(residual))


def pde_loss_on_graph(model, x, t, c=0.5):
    x.requires_grad = True
    t.requires_grad = True
    u_pred = model(x, t)
    u_t, u_x = torch.autograd.grad(u_pred, (t, x), torch.ones_like(u_pred), create_graph=True)
    residual = u_t + c * u_x - source(x, t)
    return nn.MSELoss()(residual, torch.zeros_like(residual))
