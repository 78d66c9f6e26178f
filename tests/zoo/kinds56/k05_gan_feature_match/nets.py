import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, z_dim=8, out_dim=2, hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(z_dim, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, out_dim),
        )

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    """MLP critic that exposes its intermediate activations through `self.taps`."""

    def __init__(self, in_dim=2, hidden=64):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Linear(in_dim, hidden), nn.LeakyReLU(0.2),
            nn.Linear(hidden, hidden), nn.LeakyReLU(0.2),
        )
        self.out = nn.Linear(hidden, 1)
        self.taps = {}
        self.trunk[1].register_forward_hook(self._keep("low"))
        self.trunk[3].register_forward_hook(self._keep("high"))

    def _keep(self, name):
        def hook(module, inputs, output):
            self.taps[name] = output.clone().detach()
        return hook

    def forward(self, x):
        return self.out(self.trunk(x))
