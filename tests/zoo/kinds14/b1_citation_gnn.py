"""
expect: GL001 30
dynamic: confirm
source: kind B

A two-layer message-passing node classifier for a citation graph; `forward` calls a helper
`_propagate` defined below it, which computes the neighbour messages through `self.message`
under torch.no_grad(). The asserts show `message.weight` never gets a gradient and stays
fixed, while a variant whose helper keeps history trains it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CitationGNN(nn.Module):
    def __init__(self, in_dim, hid, classes):
        super().__init__()
        self.message = nn.Linear(in_dim, hid)
        self.update = nn.Linear(in_dim + hid, hid)
        self.readout = nn.Linear(hid, classes)

    def forward(self, feats, adj):
        msgs = self._propagate(feats, adj)
        h = torch.relu(self.update(torch.cat([feats, msgs], dim=1)))
        return self.readout(h)

    def _propagate(self, feats, adj):
        deg = adj.sum(1, keepdim=True).clamp(min=1)
        with torch.no_grad():
            msgs = (adj @ self.message(feats)) / deg
        return msgs


class CitationGNNFixed(CitationGNN):
    def _propagate(self, feats, adj):
        deg = adj.sum(1, keepdim=True).clamp(min=1)
        return (adj @ self.message(feats)) / deg


def train(cls):
    torch.manual_seed(0)
    n = 20
    feats = torch.randn(n, 12)
    adj = (torch.rand(n, n) > 0.7).float()
    labels = torch.randint(0, 3, (n,))
    model = cls(12, 16, 3)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    before = model.message.weight.detach().clone()
    for _ in range(3):
        opt.zero_grad()
        F.cross_entropy(model(feats, adj), labels).backward()
        opt.step()
    return model, before


model, before = train(CitationGNN)
assert model.message.weight.grad is None
assert torch.equal(model.message.weight, before)
assert model.update.weight.grad is not None

model, before = train(CitationGNNFixed)
assert model.message.weight.grad is not None
assert not torch.equal(model.message.weight, before)
print("b1 ok")
