import torch
import torch.nn as nn


class NeuralNet(nn.Module):
    def __init__(self, width=20, depth=3, seed=42):
        super().__init__()
        torch.manual_seed(seed)
        layers, d = [], 1
        for _ in range(depth):
            layers += [nn.Linear(d, width), nn.Tanh()]
            d = width
        layers.append(nn.Linear(d, 1))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)


class TemporalPINN:
    """One implicit-Euler step of u_t = eps*u_xx + u - u^3 on [0, 1]."""

    def __init__(self, u_previous, x_int, delta_t=0.05, eps=0.01):
        self.u_previous = u_previous
        self.x_int = x_int
        self.delta_t = delta_t
        self.eps = eps
        self.approximate_solution = NeuralNet()

    def compute_pde_residual(self):
        x = self.x_int.clone().requires_grad_(True)
        u = self.approximate_solution(x)
        u_x = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
        u_xx = torch.autograd.grad(u_x.sum(), x, create_graph=True)[0]
        return (u - self.u_previous) / self.delta_t - (self.eps * u_xx + u - u ** 3)

    def compute_loss(self):
        r = self.compute_pde_residual()
        ends = self.approximate_solution(torch.tensor([[0.0], [1.0]]))
        return r.pow(2).mean() + ends.pow(2).mean()

    def calculate_u_end(self):
        return self.approximate_solution(self.x_int)

    def fit(self, num_epochs, optimizer):
        history = []
        for _ in range(num_epochs):
            def closure():
                optimizer.zero_grad()
                loss = self.compute_loss()
                loss.backward(retain_graph=True)
                history.append(loss.item())
                return loss

            optimizer.step(closure)
        u_end = self.calculate_u_end()
        return history, u_end
