"""Server-side hypernetwork that emits the weights of each client's small target network."""
from collections import OrderedDict

import torch
from torch import nn


class TargetNet(nn.Module):
    def __init__(self, in_dim=6, hidden=8, out_dim=3):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden)
        self.fc2 = nn.Linear(hidden, out_dim)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class HyperNet(nn.Module):
    def __init__(self, n_clients, target, embed_dim=5, hidden=32):
        super().__init__()
        self.embeddings = nn.Embedding(n_clients, embed_dim)
        self.body = nn.Sequential(nn.Linear(embed_dim, hidden), nn.ReLU())
        self.shapes = OrderedDict((k, v.shape) for k, v in target.state_dict().items())
        self.heads = nn.ModuleDict({k.replace(".", "_"): nn.Linear(hidden, v.numel()) for k, v in self.shapes.items()})

    def forward(self, client_id):
        feat = self.body(self.embeddings(torch.tensor([client_id])))
        return OrderedDict((k, self.heads[k.replace(".", "_")](feat).view(shape)) for k, shape in self.shapes.items())
