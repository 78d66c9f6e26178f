"""Hierarchical wake-sleep energy model: one energy network and one optimizer per level."""
import torch
import torch.nn as nn


def energy_net(dim, hidden=32):
    return nn.Sequential(nn.Linear(dim, hidden), nn.SiLU(), nn.Linear(hidden, 1))


class HierarchicalWakeSleepEBM:
    def __init__(self, dims, lr=1e-3):
        self.nets = [energy_net(d) for d in dims]
        self.optimizers = [torch.optim.Adam(n.parameters(), lr=lr) for n in self.nets]

    def wake_phase(self, data):
        total = 0.0
        current = data
        last = len(self.nets) - 1
        for level, (net, opt) in enumerate(zip(self.nets, self.optimizers)):
            opt.zero_grad()
            energies = net(current)
            level_loss = energies.mean()
            level_loss.backward(retain_graph=True)
            opt.step()
            total = total + level_loss.item()
            if level < last:
                # bottom-up message for the next level: the energy gradient wrt this level's input
                message = torch.autograd.grad(level_loss * energies.shape[0], current)[0]
                current = message.detach().requires_grad_(True)
        return total


class FixedWakeSleepEBM(HierarchicalWakeSleepEBM):
    def wake_phase(self, data):
        total = 0.0
        current = data
        last = len(self.nets) - 1
        for level, (net, opt) in enumerate(zip(self.nets, self.optimizers)):
            opt.zero_grad()
            energies = net(current)
            level_loss = energies.mean()
            message = None
            if level < last:
                message = torch.autograd.grad(energies.sum(), current, retain_graph=True)[0]
            level_loss.backward()
            opt.step()
            total = total + level_loss.item()
            if message is not None:
                current = message.detach().requires_grad_(True)
        return total
