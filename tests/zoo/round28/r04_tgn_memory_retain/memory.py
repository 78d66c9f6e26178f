"""Per-node memory for a temporal graph network (TGN-style)."""
import torch
import torch.nn as nn


class Memory(nn.Module):
    def __init__(self, num_nodes, memory_dim, edge_dim):
        super().__init__()
        self.memory_dim = memory_dim
        self.updater = nn.GRUCell(2 * memory_dim + edge_dim, memory_dim)
        self.num_nodes = num_nodes
        self.reset()

    def reset(self):
        # called at the start of every epoch, as in TGN
        self.memory_container = {n: torch.zeros(self.memory_dim) for n in range(self.num_nodes)}

    def get(self, nodes):
        return torch.stack([self.memory_container[int(n)] for n in nodes])

    def update(self, src, dst, edge_feat):
        m_src, m_dst = self.get(src), self.get(dst)
        new_src = self.updater(torch.cat([m_src, m_dst, edge_feat], 1), m_src)
        new_dst = self.updater(torch.cat([m_dst, m_src, edge_feat], 1), m_dst)
        for k, n in enumerate(src):
            self.memory_container[int(n)] = new_src[k]
        for k, n in enumerate(dst):
            self.memory_container[int(n)] = new_dst[k]
        return new_src, new_dst

    def detach_tensor_grads(self):
        for n, mem in self.memory_container.items():
            self.memory_container[n] = mem.detach()
