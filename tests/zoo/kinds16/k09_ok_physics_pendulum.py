"""
expect: none
dynamic: dismiss
source: kind 9

A pendulum model keeps gravitational acceleration as a constant
nn.Parameter(..., requires_grad=False) (so it moves with .to() and lands in
the state_dict) and reads it through `.data` in forward. The trainable
friction parameter and residual net are used directly. The asserts show the
constant never changes and gets no grad (as intended), while the friction
parameter trains to the true value.
"""
import torch
import torch.nn as nn


class Pendulum(nn.Module):
    def __init__(self, length=1.0, dt=0.02):
        super().__init__()
        self.length, self.dt = length, dt
        self.g = nn.Parameter(torch.tensor(9.81), requires_grad=False)
        self.friction = nn.Parameter(torch.tensor(0.05))
        self.residual = nn.Linear(2, 1)

    def forward(self, theta0, omega0, steps):
        theta, omega, out = theta0, omega0, []
        g = self.g.data
        for _ in range(steps):
            state = torch.stack([theta, omega], dim=-1)
            alpha = (-(g / self.length) * torch.sin(theta) - self.friction * omega
                     + 0.01 * self.residual(state).squeeze(-1))
            omega = omega + self.dt * alpha
            theta = theta + self.dt * omega
            out.append(theta)
        return torch.stack(out, dim=-1)


if __name__ == "__main__":
    torch.manual_seed(16)
    theta0, omega0 = torch.rand(16) - 0.5, torch.randn(16)
    with torch.no_grad():
        true = Pendulum()
        true.friction.fill_(0.6)
        true.residual.weight.zero_(), true.residual.bias.zero_()
        traj = true(theta0, omega0, 100)
    model = Pendulum()
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=0.03)
    for _ in range(200):
        opt.zero_grad()
        nn.functional.mse_loss(model(theta0, omega0, 100), traj).backward()
        assert model.friction.grad is not None and model.g.grad is None
        opt.step()
    assert model.g.item() == torch.tensor(9.81).item()
    assert abs(model.friction.item() - 0.6) < 0.05, model.friction.item()
    print("ok: frozen constant read via .data; friction trains to", model.friction.item())
