"""GNN-based graph partitioning strategy: predicts a part for every node and scores the partition."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class PartitionGNN(nn.Module):
    def __init__(self, in_dim, hidden, k):
        super().__init__()
        self.lin1 = nn.Linear(in_dim, hidden)
        self.lin2 = nn.Linear(hidden, k)

    def forward(self, x, adj):
        h = F.relu(adj @ self.lin1(x))
        return adj @ self.lin2(h)


class GNNBasedPartitioningStrategy:
    def __init__(self, model, num_partitions, balance_weight=1.0, cut_size_weight=1.0,
                 conductance_weight=1.0, lr=1e-2):
        self.model = model
        self.k = num_partitions
        self.balance_weight = balance_weight
        self.cut_size_weight = cut_size_weight
        self.conductance_weight = conductance_weight
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)

    def partition(self, x, adj):
        with torch.no_grad():
            predictions = self.model(x, adj)
        assignments = torch.argmax(predictions.view(-1, self.k), dim=1)
        return {i: set(torch.where(assignments == i)[0].tolist()) for i in range(self.k)}

    @staticmethod
    def _calculate_balance(partitions, num_nodes):
        sizes = [len(p) for p in partitions.values()]
        return min(sizes) / max(max(sizes), 1) if num_nodes else 0.0

    @staticmethod
    def _calculate_cut_size(adj, partitions):
        part_of = {v: pid for pid, nodes in partitions.items() for v in nodes}
        src, dst = torch.nonzero(torch.triu(adj, diagonal=1) > 0, as_tuple=True)
        return float(sum(part_of[int(a)] != part_of[int(b)] for a, b in zip(src, dst)))

    @staticmethod
    def _calculate_conductance(adj, nodes):
        if not nodes:
            return 1.0
        mask = torch.zeros(adj.shape[0], dtype=torch.bool)
        mask[list(nodes)] = True
        binary = (adj > 0).float().fill_diagonal_(0)
        cut = binary[mask][:, ~mask].sum().item()
        volume = binary[mask].sum().item()
        return cut / volume if volume else 1.0

    def _compute_loss(self, predictions, x, adj):
        partitions = self.partition(x, adj)
        n = adj.shape[0]
        balance_loss = 1 - self._calculate_balance(partitions, n)
        cut_size_loss = self._calculate_cut_size(adj, partitions) / (n * (n - 1) / 2)
        conductance_loss = np.mean([self._calculate_conductance(adj, p) for p in partitions.values()])
        total_loss = (self.balance_weight * balance_loss + self.cut_size_weight * cut_size_loss
                      + self.conductance_weight * conductance_loss)
        return torch.tensor(total_loss, requires_grad=True)

    def train(self, x, adj, epochs=30):
        losses = []
        for _ in range(epochs):
            self.optimizer.zero_grad()
            predictions = self.model(x, adj)
            loss = self._compute_loss(predictions, x, adj)
            loss.backward()
            self.optimizer.step()
            losses.append(loss.item())
        return losses
