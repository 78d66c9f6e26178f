"""
expect: none
dynamic: dismiss
source: kinds check 22, kind 3 (written for this check)

A learned potential energy is evaluated per particle configuration into a preallocated
buffer with attached outputs, then a trainable unit scale and offset map it to measured
energies. The asserts show the potential network and both calibration parameters get grads.
"""
import torch
import torch.nn as nn


def pairwise_feature(pos):
    d = torch.cdist(pos, pos)
    iu = torch.triu_indices(pos.shape[0], pos.shape[0], 1)
    return torch.exp(-d[iu[0], iu[1]])


class PotentialFit(nn.Module):
    def __init__(self, n_pairs):
        super().__init__()
        self.potential = nn.Sequential(nn.Linear(n_pairs, 32), nn.Softplus(), nn.Linear(32, 1))
        self.unit = nn.Parameter(torch.tensor(1.0))
        self.offset = nn.Parameter(torch.tensor(0.0))

    def energies(self, configs):
        energy = torch.zeros(len(configs))
        for k, pos in enumerate(configs):
            energy[k] = self.potential(pairwise_feature(pos)).squeeze()
        return self.unit * energy + self.offset


torch.manual_seed(6)
configs = [torch.randn(5, 3) for _ in range(10)]
measured = torch.randn(10)
fit = PotentialFit(n_pairs=10)
loss = nn.functional.mse_loss(fit.energies(configs), measured)
loss.backward()
for name, p in fit.named_parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0, name
print("ok: every parameter trains")
