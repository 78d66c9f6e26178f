"""Per-node memory store of a temporal graph network, with raw-message buffer."""
import torch
import torch.nn as nn


class Memory(nn.Module):
    def __init__(self, n_nodes, dim):
        super().__init__()
        self.n_nodes, self.dim = n_nodes, dim
        self.reset()

    def reset(self):
        self.memory = nn.Parameter(torch.zeros(self.n_nodes, self.dim), requires_grad=False)
        self.messages = {}

    def get_memory(self, nodes):
        return self.memory[nodes]

    def set_memory(self, nodes, values):
        self.memory[nodes] = values

    def store_raw_messages(self, nodes, msgs):
        for node, msg in zip(nodes.tolist(), msgs):
            self.messages[node] = msg

    def detach_memory(self):
        self.memory.detach_()
        self.messages = {k: v.detach() for k, v in self.messages.items()}
