"""
expect: GL001 60
dynamic: confirm
source: https://github.com/aiqm/torchani/pull/238

An ANI-style neural network potential (radial atomic environment vectors, one small network per
element, energies summed over atoms) is trained on energies and forces in chunks, as in the
library's force-training example. Forces are taken as -dE/dR with torch.autograd.grad and
retain_graph=True, so that the energy loss can still be backpropagated afterwards, but without
create_graph=True: the force tensor is a plain number array with no history. The force term is
added to the total loss with a large coefficient and looks like it trains, yet it contributes no
gradient to any network weight; the PR adds create_graph=True. The asserts show that the weight
gradients of energy+force loss equal those of the energy loss alone, and that with create_graph the
force term changes the gradients and a force-only fit moves the weights.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

ETA, RC = 4.0, 5.0
SHIFTS = torch.linspace(0.8, 4.5, 8)


def radial_aev(coordinates, species, n_species=2):
    diff = coordinates.unsqueeze(2) - coordinates.unsqueeze(1)
    dist = (diff.pow(2).sum(-1) + 1e-12).sqrt()
    n = coordinates.shape[1]
    mask = ~torch.eye(n, dtype=torch.bool)
    fc = 0.5 * torch.cos(torch.pi * dist / RC) + 0.5
    fc = fc * (dist < RC) * mask
    terms = torch.exp(-ETA * (dist.unsqueeze(-1) - SHIFTS) ** 2) * fc.unsqueeze(-1)
    onehot = nn.functional.one_hot(species, n_species).float()
    return torch.einsum("bijr,bjs->bisr", terms, onehot).flatten(2)


class ANIModel(nn.Module):
    def __init__(self, n_species=2, hidden=32):
        super().__init__()
        self.nets = nn.ModuleList(
            nn.Sequential(nn.Linear(8 * n_species, hidden), nn.CELU(0.1), nn.Linear(hidden, 1))
            for _ in range(n_species)
        )

    def forward(self, species, coordinates):
        aev = radial_aev(coordinates, species)
        atomic = torch.zeros(species.shape, dtype=aev.dtype)
        for s, net in enumerate(self.nets):
            sel = species == s
            atomic = atomic.masked_scatter(sel, net(aev[sel]).squeeze(-1))
        return atomic.sum(1)


def chunk_losses(model, chunk, create_graph):
    species, coordinates, true_energies, true_forces = chunk
    coordinates = coordinates.clone().requires_grad_(True)
    energies = model(species, coordinates)
    if not create_graph:
        forces = -torch.autograd.grad(energies.sum(), coordinates, retain_graph=True)[0]
    else:
        forces = -torch.autograd.grad(energies.sum(), coordinates, create_graph=True, retain_graph=True)[0]
    num_atoms = species.shape[1]
    energy_loss = ((energies - true_energies) ** 2 / num_atoms).mean()
    force_loss = ((forces - true_forces) ** 2).sum(dim=(1, 2)).div(num_atoms).mean()
    return energy_loss, force_loss


def make_chunks(n_chunks=3, batch=4, atoms=5):
    chunks = []
    for _ in range(n_chunks):
        species = torch.randint(0, 2, (batch, atoms))
        coordinates = torch.randn(batch, atoms, 3) * 1.3
        chunks.append((species, coordinates, torch.randn(batch), torch.randn(batch, atoms, 3)))
    return chunks


def total_grads(model, chunks, create_graph, force_coefficient, energy_weight=1.0):
    model.zero_grad()
    for chunk in chunks:
        e_loss, f_loss = chunk_losses(model, chunk, create_graph)
        (energy_weight * e_loss + force_coefficient * f_loss).backward()
    return [torch.zeros_like(p) if p.grad is None else p.grad.clone() for p in model.parameters()]


chunks = make_chunks()
for create_graph in (False, True):
    torch.manual_seed(1)
    model = ANIModel()
    with_force = total_grads(model, chunks, create_graph, force_coefficient=0.1)
    energy_only = total_grads(model, chunks, create_graph, force_coefficient=0.0)
    force_changes_grad = any(not torch.allclose(a, b) for a, b in zip(with_force, energy_only))

    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    before = [p.detach().clone() for p in model.parameters()]
    for _ in range(3):
        opt.zero_grad()
        for chunk in chunks:
            e_loss, f_loss = chunk_losses(model, chunk, create_graph)
            (0.0 * e_loss + f_loss).backward()
        opt.step()
    moved = any(not torch.equal(b, p.detach()) for b, p in zip(before, model.parameters()))
    print(f"create_graph={create_graph}: force term changes weight grads = {force_changes_grad}, "
          f"force-only fit moves weights = {moved}")
    if create_graph:
        assert force_changes_grad and moved
    else:
        assert not force_changes_grad and not moved
