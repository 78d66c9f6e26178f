"""
expect: GL001 53
dynamic: confirm
source: https://github.com/materialyzeai/matgl/issues/834

A CHGNet-style interatomic potential predicts a total energy from a two-body (bond) branch and a
three-body (bond-pair / angle) branch, and forces are taken as -dE/dR with autograd.grad. The
directed line graph that feeds the three-body branch is built inside torch.no_grad(), as in the
report: the gathered bond vectors come out with no history, so the three-body energy is a function
of the parameters only and contributes nothing to dE/dR. Forces therefore miss every angular term,
and a force loss can never reach the three-body weights. The asserts show that the force-loss
gradient of the three-body head is zero and that the predicted forces disagree with a finite
difference of the model's own energy, while the version that builds the line graph with history
gives non-zero three-body gradients and forces consistent with the energy.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def radial_basis(d, n=8, cutoff=4.0):
    centers = torch.linspace(0.5, cutoff, n)
    return torch.exp(-4.0 * (d.unsqueeze(-1) - centers) ** 2)


def build_line_graph(edge_index, bond_vec):
    # pairs of bonds (e1, e2) that share the same source atom: angle triplets
    src = edge_index[0]
    pairs = []
    for e1 in range(src.numel()):
        for e2 in range(src.numel()):
            if e1 != e2 and src[e1] == src[e2]:
                pairs.append((e1, e2))
    triplets = torch.tensor(pairs, dtype=torch.long).t()
    return triplets, bond_vec[triplets[0]], bond_vec[triplets[1]]


class TinyCHGNet(nn.Module):
    def __init__(self, hidden=16, detach_line_graph=True):
        super().__init__()
        self.detach_line_graph = detach_line_graph
        self.two_body = nn.Sequential(nn.Linear(8, hidden), nn.SiLU(), nn.Linear(hidden, 1))
        self.three_body = nn.Sequential(nn.Linear(8 + 1, hidden), nn.SiLU(), nn.Linear(hidden, 1))

    def energy(self, pos, edge_index):
        bond_vec = pos[edge_index[1]] - pos[edge_index[0]]
        bond_dist = bond_vec.norm(dim=-1)
        e_two = self.two_body(radial_basis(bond_dist)).sum()
        if self.detach_line_graph:
            with torch.no_grad():
                triplets, vec_a, vec_b = build_line_graph(edge_index, bond_vec)
        else:
            triplets, vec_a, vec_b = build_line_graph(edge_index, bond_vec)
        cos_theta = (vec_a * vec_b).sum(-1) / (vec_a.norm(dim=-1) * vec_b.norm(dim=-1))
        feat = torch.cat([radial_basis(vec_a.norm(dim=-1)), cos_theta.unsqueeze(-1)], dim=-1)
        e_three = self.three_body(feat).sum()
        return e_two + e_three

    def energy_and_forces(self, pos, edge_index):
        pos = pos.clone().requires_grad_(True)
        e = self.energy(pos, edge_index)
        forces = -torch.autograd.grad(e, pos, create_graph=True)[0]
        return e, forces


def full_edges(n_atoms):
    idx = [(i, j) for i in range(n_atoms) for j in range(n_atoms) if i != j]
    return torch.tensor(idx, dtype=torch.long).t()


def finite_difference_forces(model, pos, edge_index, h=1e-4):
    f = torch.zeros_like(pos)
    with torch.no_grad():
        for a in range(pos.shape[0]):
            for k in range(3):
                p_plus, p_minus = pos.clone(), pos.clone()
                p_plus[a, k] += h
                p_minus[a, k] -= h
                f[a, k] = -(model.energy(p_plus, edge_index) - model.energy(p_minus, edge_index)) / (2 * h)
    return f


def run(detach_line_graph):
    torch.manual_seed(1)
    model = TinyCHGNet(detach_line_graph=detach_line_graph).double()
    pos = (torch.randn(5, 3) * 1.2).double()
    edge_index = full_edges(5)
    e_ref = torch.tensor(-3.0, dtype=torch.float64)
    f_ref = torch.randn(5, 3, dtype=torch.float64)

    e, forces = model.energy_and_forces(pos, edge_index)
    force_loss = ((forces - f_ref) ** 2).mean()
    g3 = torch.autograd.grad(force_loss, list(model.three_body.parameters()), allow_unused=True, retain_graph=True)
    g3_norm = sum(0.0 if g is None else g.abs().sum().item() for g in g3)
    fd = finite_difference_forces(model, pos, edge_index)
    consistent = torch.allclose(forces.detach(), fd, atol=1e-5)

    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    before = [p.detach().clone() for p in model.three_body.parameters()]
    for _ in range(5):
        e, forces = model.energy_and_forces(pos, edge_index)
        loss = ((forces - f_ref) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    moved = any(not torch.equal(b, p.detach()) for b, p in zip(before, model.three_body.parameters()))
    return g3_norm, consistent, moved


g_bug, cons_bug, moved_bug = run(detach_line_graph=True)
g_fix, cons_fix, moved_fix = run(detach_line_graph=False)
print(f"line graph under no_grad: three-body grad from force loss = {g_bug:.3e}, forces consistent = {cons_bug}")
print(f"line graph with history : three-body grad from force loss = {g_fix:.3e}, forces consistent = {cons_fix}")
assert g_bug == 0.0 and not moved_bug
assert not cons_bug
assert g_fix > 0.0 and moved_fix
assert cons_fix
