import torch
import torch.nn as nn


class AtomEncoder(nn.Module):
    def __init__(self, n_atom_types, dim):
        super().__init__()
        self.emb = nn.Embedding(n_atom_types, dim)

    def forward(self, atom_type):
        return self.emb(atom_type)


class BondEncoder(nn.Module):
    def __init__(self, bond_feat_dim, dim):
        super().__init__()
        self.proj = nn.Sequential(nn.Linear(bond_feat_dim, dim), nn.SiLU(), nn.Linear(dim, dim))

    def forward(self, bond_feat):
        return self.proj(bond_feat)


class MessageLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.msg = nn.Linear(2 * dim, dim)
        self.upd = nn.GRUCell(dim, dim)

    def forward(self, h, edge_index, e):
        src, dst = edge_index
        m = torch.relu(self.msg(torch.cat([h[src], e], dim=-1)))
        agg = torch.zeros_like(h).index_add_(0, dst, m)
        return self.upd(agg, h)


class SumReadout(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.out = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, 1))

    def forward(self, h, graph_id, n_graphs):
        pooled = torch.zeros(n_graphs, h.shape[1]).index_add_(0, graph_id, h)
        return self.out(pooled).squeeze(-1)


class MPNN(nn.Module):
    def __init__(self, n_atom_types=5, bond_feat_dim=4, dim=32, n_layers=3):
        super().__init__()
        self.atom_encoder = AtomEncoder(n_atom_types, dim)
        self.bond_encoder = BondEncoder(bond_feat_dim, dim)
        self.layers = nn.ModuleList([MessageLayer(dim) for _ in range(n_layers)])
        self.readout = SumReadout(dim)

    def blocks(self):
        return [self.atom_encoder, self.bond_encoder, *self.layers, self.readout]

    def forward(self, graph):
        h = self.atom_encoder(graph["atom_type"])
        e = self.bond_encoder(graph["bond_feat"]).data
        for layer in self.layers:
            h = layer(h, graph["edge_index"], e)
        return self.readout(h, graph["graph_id"], graph["n_graphs"])
