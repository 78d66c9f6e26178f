"""Tiny MolGAN-style generator, discriminator and reward (value) network."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ATOMS, N_ATOM_TYPES, N_BOND_TYPES = 6, 4, 3


class Generator(nn.Module):
    def __init__(self, z_dim=8, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(z_dim, hidden), nn.Tanh())
        self.edges_layer = nn.Linear(hidden, N_BOND_TYPES * N_ATOMS * N_ATOMS)
        self.nodes_layer = nn.Linear(hidden, N_ATOMS * N_ATOM_TYPES)

    def forward(self, z):
        h = self.body(z)
        edges_logits = self.edges_layer(h).view(-1, N_BOND_TYPES, N_ATOMS, N_ATOMS)
        edges_logits = (edges_logits + edges_logits.transpose(2, 3)) / 2
        nodes_logits = self.nodes_layer(h).view(-1, N_ATOMS, N_ATOM_TYPES)
        return edges_logits, nodes_logits


class GraphCritic(nn.Module):
    """Shared architecture for the discriminator D and the reward network V."""

    def __init__(self, hidden=32, sigmoid_out=False):
        super().__init__()
        self.node_proj = nn.Linear(N_ATOM_TYPES, hidden)
        self.edge_mix = nn.Linear(N_BOND_TYPES, 1)
        self.out = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        self.sigmoid_out = sigmoid_out

    def forward(self, edges, nodes):
        adj = self.edge_mix(edges.permute(0, 2, 3, 1)).squeeze(-1)      # B x N x N
        h = torch.tanh(self.node_proj(nodes))                            # B x N x H
        h = torch.tanh(torch.bmm(adj, h) + h)
        out = self.out(h.mean(dim=1)).squeeze(-1)
        return torch.sigmoid(out) if self.sigmoid_out else out
