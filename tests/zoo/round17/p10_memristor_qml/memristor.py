"""Photonic classifier with a memristive phase shifter (phase depends on the light history)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MemristivePhaseShifter(nn.Module):
    """Mesh of 2x2 mode rotations whose phases drift with the recent optical power.

    num_backprop_steps=None keeps the whole history differentiable; 0 detaches it every pass.
    """

    def __init__(self, n_modes, kappa=0.6, memory=0.8, num_backprop_steps=None):
        super().__init__()
        self.n_modes = n_modes
        self.theta = nn.Parameter(torch.rand(n_modes - 1) * math.pi)
        self.register_buffer("kappa", torch.tensor(kappa))  # device constant, not trained
        self.memory = memory
        self.num_backprop_steps = num_backprop_steps
        self.history = None

    def forward(self, amps):
        state = self.history if self.history is not None else torch.zeros_like(self.theta)
        phase = self.theta + self.kappa * state
        modes = list(amps.unbind(-1))
        for k in range(self.n_modes - 1):
            c, s = torch.cos(phase[k]), torch.sin(phase[k])
            modes[k], modes[k + 1] = c * modes[k] - s * modes[k + 1], s * modes[k] + c * modes[k + 1]
        intensity = torch.stack(modes, -1) ** 2
        drive = intensity.mean(0)[:-1]
        if self.history is None:
            self.history = drive
        else:
            self.history = self.memory * self.history + (1 - self.memory) * drive
        if self.num_backprop_steps == 0:
            self.history = self.history.detach()
        return intensity


class PhotonicClassifier(nn.Module):
    def __init__(self, in_features, n_modes=6, classes=2, **shifter_kwargs):
        super().__init__()
        self.encode = nn.Linear(in_features, n_modes)
        self.shifter = MemristivePhaseShifter(n_modes, **shifter_kwargs)
        self.readout = nn.Linear(n_modes, classes)

    def forward(self, x):
        amps = F.normalize(self.encode(x), dim=-1)
        return self.readout(self.shifter(amps))
