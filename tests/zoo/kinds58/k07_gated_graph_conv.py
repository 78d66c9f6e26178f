"""
expect: GL005 34
dynamic: confirm
source: none, invented

A dense message-passing network for padded molecular graphs. Each GatedGraphConv layer computes
messages z from neighbour sums and turns them into a gate with a conditional expression,
gate = torch.sigmoid(z) if self.gated else self.proj(z), then zeroes the rows of padding nodes
with an indexed assignment gate[~node_mask] = 0.0. The model is built with gated=True, so the
arm that runs is sigmoid, whose backward reuses its own output; the indexed assignment edits that
saved output in place and the backward pass fails. The asserts catch the "modified by an inplace
operation" RuntimeError for the gated model, show that the proj arm (a Linear, whose output is not
saved) trains with the same assignment, and that the gated model trains when the padding rows are
zeroed out of place with masked_fill.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedGraphConv(nn.Module):
    def __init__(self, dim, gated=True, pad_fill="index"):
        super().__init__()
        self.msg = nn.Linear(dim, dim)
        self.proj = nn.Linear(dim, dim)
        self.update = nn.Linear(2 * dim, dim)
        self.gated = gated
        self.pad_fill = pad_fill

    def forward(self, x, adj, node_mask):
        z = self.msg(torch.bmm(adj, x))
        gate = torch.sigmoid(z) if self.gated else self.proj(z)
        if self.pad_fill == "index":
            gate[~node_mask] = 0.0
        else:
            gate = gate.masked_fill(~node_mask.unsqueeze(-1), 0.0)
        return x + gate * torch.tanh(self.update(torch.cat([x, z], -1)))


class MoleculeRegressor(nn.Module):
    def __init__(self, n_atom_types=9, dim=32, layers=3, **conv_kw):
        super().__init__()
        self.atom_embed = nn.Embedding(n_atom_types, dim)
        self.convs = nn.ModuleList([GatedGraphConv(dim, **conv_kw) for _ in range(layers)])
        self.readout = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, 1))

    def forward(self, atoms, adj, node_mask):
        h = self.atom_embed(atoms)
        for conv in self.convs:
            h = conv(h, adj, node_mask)
        h = (h * node_mask.unsqueeze(-1)).sum(1) / node_mask.sum(1, keepdim=True)
        return self.readout(h).squeeze(-1)


def random_molecules(batch=24, max_atoms=10):
    n_atoms = torch.randint(4, max_atoms + 1, (batch,))
    node_mask = torch.arange(max_atoms)[None] < n_atoms[:, None]
    atoms = torch.randint(0, 9, (batch, max_atoms)) * node_mask
    adj = (torch.rand(batch, max_atoms, max_atoms) < 0.3).float()
    adj = ((adj + adj.transpose(1, 2)) > 0).float()
    adj = adj * node_mask[:, None, :] * node_mask[:, :, None]
    target = (atoms.float() * node_mask).sum(1) / 10 + adj.sum((1, 2)) / 50
    return atoms, adj, node_mask, target


def fit(model, data, steps=40):
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    losses = []
    for _ in range(steps):
        loss = F.mse_loss(model(*data[:3]), data[3])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    data = random_molecules()

    model = MoleculeRegressor(gated=True)
    try:
        fit(model, data, steps=1)
        raise AssertionError("backward through the gate should have failed")
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err

    torch.manual_seed(1)
    losses = fit(MoleculeRegressor(gated=False), data)
    assert losses[-1] < 0.5 * losses[0], (losses[0], losses[-1])

    torch.manual_seed(1)
    model = MoleculeRegressor(gated=True, pad_fill="masked_fill")
    losses = fit(model, data)
    assert losses[-1] < 0.5 * losses[0], (losses[0], losses[-1])
    assert model.convs[0].msg.weight.grad.abs().sum() > 0
    print("gated graph conv: ok, mse %.3f -> %.3f" % (losses[0], losses[-1]))


if __name__ == "__main__":
    main()
