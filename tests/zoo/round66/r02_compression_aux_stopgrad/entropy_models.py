"""Factorized-prior entropy bottleneck (Balle et al. 2018), reduced to what training needs."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EntropyBottleneck(nn.Module):
    def __init__(self, channels, filters=(3, 3), init_scale=10.0, tail_mass=1e-9):
        super().__init__()
        self.channels = channels
        self.tail_mass = tail_mass
        widths = (1,) + tuple(filters) + (1,)
        scale = init_scale ** (1 / (len(filters) + 1))
        self._matrices = nn.ParameterList()
        self._biases = nn.ParameterList()
        self._factors = nn.ParameterList()
        for i in range(len(filters) + 1):
            init = torch.log(torch.expm1(torch.tensor(1 / scale / widths[i + 1])))
            self._matrices.append(nn.Parameter(torch.full((channels, widths[i + 1], widths[i]), float(init))))
            self._biases.append(nn.Parameter(torch.empty(channels, widths[i + 1], 1).uniform_(-0.5, 0.5)))
            if i < len(filters):
                self._factors.append(nn.Parameter(torch.zeros(channels, widths[i + 1], 1)))
        q = torch.tensor([-init_scale, 0.0, init_scale])
        self.quantiles = nn.Parameter(q.repeat(channels, 1, 1))
        target = torch.log(torch.tensor(2 / tail_mass - 1))
        self.register_buffer("target", torch.tensor([-target, 0.0, target]))

    def _logits_cumulative(self, inputs, stop_gradient):
        logits = inputs
        for i in range(len(self._matrices)):
            matrix = self._matrices[i]
            if stop_gradient:
                matrix = matrix.detach()
            logits = torch.matmul(F.softplus(matrix), logits)
            bias = self._biases[i]
            if stop_gradient:
                bias = bias.detach()
            logits = logits + bias
            if i < len(self._factors):
                factor = self._factors[i]
                if stop_gradient:
                    factor = factor.detach()
                logits = logits + torch.tanh(factor) * torch.tanh(logits)
        return logits

    def loss(self):
        """Auxiliary loss: fit the quantiles to the current density; density itself frozen."""
        logits = self._logits_cumulative(self.quantiles, stop_gradient=True)
        return torch.abs(logits - self.target).sum()

    def _likelihood(self, values):
        lower = self._logits_cumulative(values - 0.5, stop_gradient=False)
        upper = self._logits_cumulative(values + 0.5, stop_gradient=False)
        sign = -torch.sign(lower + upper).detach()
        return torch.abs(torch.sigmoid(sign * upper) - torch.sigmoid(sign * lower))

    def forward(self, y):
        # y: (N, C) -> (C, 1, N)
        values = y.t().unsqueeze(1)
        if self.training:
            noisy = values + torch.empty_like(values).uniform_(-0.5, 0.5)
        else:
            noisy = torch.round(values)
        likelihood = self._likelihood(noisy).clamp_min(1e-9)
        return noisy.squeeze(1).t(), likelihood.squeeze(1).t()

    def density_parameters(self):
        return list(self._matrices) + list(self._biases) + list(self._factors)
