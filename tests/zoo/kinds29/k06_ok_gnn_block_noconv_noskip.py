"""
expect: none
dynamic: dismiss
source: kinds check 29, kind 3

A graph network uses a nested block() helper (tanh of aggregated
messages, an optional linear layer, an optional residual add). The only
no_conv=True call has no skip, and every skip is added onto a fresh
linear output, which nothing saved.
"""
import torch
import torch.nn as nn


class GraphNet(nn.Module):
    def __init__(self, d_in, d):
        super().__init__()
        self.lin_in = nn.Linear(d_in, d)
        self.lin = nn.Linear(d, d)
        self.head = nn.Linear(d, 1)

    def forward(self, x, adj):
        def block(h, skip=None, no_conv=False):
            h = torch.tanh(adj @ h)
            if not no_conv:
                h = self.lin(h)
            if skip is not None:
                h += skip
            return h

        h0 = self.lin_in(x)
        h1 = block(h0)
        h2 = block(h1, skip=h0)
        h3 = block(h2, no_conv=True)
        return self.head(h3.mean(0))


torch.manual_seed(0)
n = 7
adj = (torch.rand(n, n) < 0.4).float()
adj = ((adj + adj.t()) > 0).float() + torch.eye(n)
adj = adj / adj.sum(1, keepdim=True)
x = torch.randn(n, 5)
y = torch.tensor([0.7])
net = GraphNet(5, 16)
opt = torch.optim.Adam(net.parameters(), lr=0.01)
losses = []
for _ in range(30):
    opt.zero_grad()
    loss = ((net(x, adj) - y) ** 2).sum()
    loss.backward()
    opt.step()
    losses.append(loss.item())
assert net.lin.weight.grad is not None and net.lin.weight.grad.abs().sum() > 0
assert losses[-1] < losses[0], losses
print("ok", losses[0], losses[-1])
