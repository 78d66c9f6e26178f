"""
expect: GL001 24
dynamic: confirm
source: kind 7

An energy model for a 1-D Ising chain learns the coupling J and a per-site
external field h from sampled configurations and their energies. forward()
reads the field as self.field.data (the Tensor attribute), which cuts it out
of the graph: J trains, h never does. The asserts show field.grad is None and
the field is unchanged while the coupling moves, and that the same model
reading self.field directly recovers the true field.
"""
import torch
import torch.nn as nn


class IsingEnergy(nn.Module):
    def __init__(self, n_sites=12):
        super().__init__()
        self.coupling = nn.Parameter(torch.zeros(()))
        self.field = nn.Parameter(torch.zeros(n_sites))

    def site_field(self):
        return self.field.data

    def forward(self, spins):  # spins in {-1, +1}, shape (B, n_sites)
        bond = (spins * spins.roll(1, dims=1)).sum(1)
        return -self.coupling * bond - (self.site_field() * spins).sum(1)


class AttachedIsingEnergy(IsingEnergy):
    def site_field(self):
        return self.field


def fit(model, true_j, true_h, steps=300):
    gen = torch.Generator().manual_seed(1)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    for _ in range(steps):
        spins = torch.randint(0, 2, (64, true_h.numel()), generator=gen).float() * 2 - 1
        bond = (spins * spins.roll(1, dims=1)).sum(1)
        energy = -true_j * bond - (true_h * spins).sum(1)
        loss = (model(spins) - energy).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    true_j, true_h = 0.8, torch.linspace(-0.5, 0.5, 12)

    model = IsingEnergy()
    fit(model, true_j, true_h)
    assert model.field.grad is None
    assert torch.equal(model.field.detach(), torch.zeros(12))
    assert abs(model.coupling.item() - true_j) < 0.1

    fixed = AttachedIsingEnergy()
    fit(fixed, true_j, true_h)
    assert fixed.field.grad is not None
    assert torch.allclose(fixed.field.detach(), true_h, atol=0.05)
    print("ok: field read via .data never trains; attached field is recovered")
