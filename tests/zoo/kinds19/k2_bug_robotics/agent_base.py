"""Shared agent plumbing for the manipulation-arm controllers."""
import torch.nn as nn


class ControlAgent:
    """Holds the policy/value network; subclasses own the learning rule."""

    def __init__(self, net: nn.Module, gamma: float = 0.99):
        self.net = net
        self.gamma = gamma
        self.updates = 0

    def act(self, obs):
        mean, _ = self.net(obs)
        return mean.detach()
