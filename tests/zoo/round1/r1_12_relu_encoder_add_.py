"""expect: GL005 24
dynamic: error
source: https://github.com/ziqi92/Modof/issues/3

A graph encoder's node update returns `F.relu(...)`; the caller then adds a positional bias into those node states in place with `h.add_(...)`. ReLU's backward reads its own output, so backward fails with "output 0 of ReluBackward0 ... is at version 1", as in the linked report. The ReLU and the in-place add are in different functions.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class NodeUpdate(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.msg = nn.Linear(dim, dim)
        self.self_loop = nn.Linear(dim, dim)

    def forward(self, h, adj):
        return F.relu(adj @ self.msg(h) + self.self_loop(h))


def encode(update, h, adj, pos_bias):
    h = update(h, adj)
    h.add_(pos_bias)
    return h.sum(dim=0)


torch.manual_seed(0)
update = NodeUpdate(8)
opt = torch.optim.Adam(update.parameters(), lr=1e-3)
h0 = torch.randn(5, 8)
adj = (torch.rand(5, 5) > 0.5).float()
pos_bias = torch.randn(5, 8) * 0.1
loss = encode(update, h0, adj, pos_bias).pow(2).mean()
opt.zero_grad()
loss.backward()
opt.step()
print("msg grad", update.msg.weight.grad.norm().item())
