"""
expect: GL001 layers.py:59
dynamic: confirm
source: none, invented

A message-passing network for a molecular property, split over two files. `layers.py` defines the atom
encoder, bond encoder, message layers and readout, and `MPNN.blocks()` returns them as a list; `main.py`
builds the optimizer from that list with `itertools.chain(*(m.parameters() for m in model.blocks()))`, so the
bond encoder is meant to train. In `MPNN.forward` the bond embeddings are taken through `.data`, which hands
the message layers a tensor with no history: the bond encoder's only path to the loss is gone, it never gets a
gradient and its weights never move, although the target depends on the bond types. The asserts show the bond
encoder's `.grad` is None and its weights are unchanged after training while the other blocks move; the
subclass `MPNNBondsTrained`, whose forward uses the embeddings directly, trains the bond encoder and reaches a
lower loss.
"""
import itertools

import torch
import torch.nn.functional as F

from layers import MPNN

torch.manual_seed(0)
torch.set_num_threads(1)


class MPNNBondsTrained(MPNN):
    def forward(self, graph):
        h = self.atom_encoder(graph["atom_type"])
        e = self.bond_encoder(graph["bond_feat"])
        for layer in self.layers:
            h = layer(h, graph["edge_index"], e)
        return self.readout(h, graph["graph_id"], graph["n_graphs"])


def random_molecule(n_atoms):
    atom_type = torch.randint(0, 5, (n_atoms,))
    src = torch.arange(n_atoms - 1)
    dst = src + 1
    bond_type = torch.randint(0, 4, (n_atoms - 1,))
    edge_index = torch.cat([torch.stack([src, dst]), torch.stack([dst, src])], dim=1)
    bond_type = torch.cat([bond_type, bond_type])
    target = (atom_type.float() * 0.1).sum() + (bond_type.float() ** 2).sum() * 0.05
    return atom_type, edge_index, bond_type, target


def collate(mols):
    atom_types, edges, bonds, gids, targets = [], [], [], [], []
    offset = 0
    for i, (atom_type, edge_index, bond_type, target) in enumerate(mols):
        atom_types.append(atom_type)
        edges.append(edge_index + offset)
        bonds.append(bond_type)
        gids.append(torch.full((atom_type.shape[0],), i))
        targets.append(target)
        offset += atom_type.shape[0]
    return {
        "atom_type": torch.cat(atom_types),
        "edge_index": torch.cat(edges, dim=1),
        "bond_feat": F.one_hot(torch.cat(bonds), 4).float(),
        "graph_id": torch.cat(gids),
        "n_graphs": len(mols),
    }, torch.stack(targets)


def train(model, batches, epochs=40):
    opt = torch.optim.Adam(itertools.chain(*(m.parameters() for m in model.blocks())), lr=3e-3)
    for epoch in range(epochs):
        total = 0.0
        for graph, y in batches:
            loss = F.mse_loss(model(graph), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
    return total / len(batches)


def main():
    mols = [random_molecule(int(torch.randint(4, 10, ()))) for _ in range(512)]
    batches = [collate(mols[i:i + 32]) for i in range(0, len(mols), 32)]

    model = MPNN()
    bond0 = [p.detach().clone() for p in model.bond_encoder.parameters()]
    msg0 = [p.detach().clone() for p in model.layers[0].parameters()]
    loss = train(model, batches)
    assert all(p.grad is None for p in model.bond_encoder.parameters())
    assert all(torch.equal(a, b) for a, b in zip(bond0, model.bond_encoder.parameters()))
    assert not any(torch.equal(a, b) for a, b in zip(msg0, model.layers[0].parameters()))

    torch.manual_seed(0)
    model_b = MPNNBondsTrained()
    bond0 = [p.detach().clone() for p in model_b.bond_encoder.parameters()]
    loss_b = train(model_b, batches)
    assert not any(torch.equal(a, b) for a, b in zip(bond0, model_b.bond_encoder.parameters()))
    assert loss_b < loss, (loss, loss_b)
    print(f"final epoch mse {loss:.4f} (bond encoder at init) vs {loss_b:.4f} (bond encoder trained)")


if __name__ == "__main__":
    main()
