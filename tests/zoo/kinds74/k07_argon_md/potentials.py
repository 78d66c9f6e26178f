"""Pair potentials in reduced Lennard-Jones units."""
import torch


class LennardJones:
    def __init__(self, epsilon=1.0, sigma=1.0, cutoff=2.5):
        self.epsilon = epsilon
        self.sigma = sigma
        self.cutoff = cutoff

    def energy(self, positions):
        diff = positions[:, None, :] - positions[None, :, :]
        n = len(positions)
        iu = torch.triu_indices(n, n, offset=1)
        r2 = (diff ** 2).sum(-1)[iu[0], iu[1]]
        sr6 = (self.sigma ** 2 / r2) ** 3
        e = 4 * self.epsilon * (sr6 ** 2 - sr6)
        return torch.where(r2 < self.cutoff ** 2, e, torch.zeros_like(e)).sum()

    def forces(self, positions):
        """F = -dE/dx, by autograd. Safe to call from inside a no_grad integrator."""
        with torch.enable_grad():
            x = positions.detach().requires_grad_(True)
            (grad,) = torch.autograd.grad(self.energy(x), x)
        return -grad
