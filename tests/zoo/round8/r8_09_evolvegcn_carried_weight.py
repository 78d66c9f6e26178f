"""
expect: GL004 33
dynamic: confirm
source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/issues/305

EvolveGCN-O: a GRU evolves the GCN weight matrix from one snapshot to the
next, and the layer keeps the evolved weight in `self.weight` between forward
calls. The training example accumulates the cost over all snapshots and calls
backward once per epoch, but never cuts `self.weight` between epochs. The next
epoch's first forward feeds the previous epoch's weight -- still attached to
the already-freed graph -- back into the GRU, so backward raises "Trying to
backward through the graph a second time" (with retain_graph=True instead,
every epoch's graph stays chained and alive). The upstream fix detaches the
weight after each epoch.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class EvolvingGCN(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.initial_weight = nn.Parameter(0.3 * torch.randn(1, dim, dim))
        self.recurrent = nn.GRU(dim, dim)
        self.weight = None

    def forward(self, x, adj):
        if self.weight is None:
            _, self.weight = self.recurrent(self.initial_weight, self.initial_weight)
        else:
            _, self.weight = self.recurrent(self.weight, self.weight)
        return adj @ x @ self.weight.squeeze(0)


class RecurrentGCN(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.recurrent = EvolvingGCN(dim)
        self.linear = nn.Linear(dim, 1)

    def forward(self, x, adj):
        return self.linear(torch.relu(self.recurrent(x, adj)))


n_nodes, dim = 5, 4
snapshots = [(torch.randn(n_nodes, dim), torch.rand(n_nodes, n_nodes), torch.randn(n_nodes, 1)) for _ in range(3)]
model = RecurrentGCN(dim)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)

raised = None
for epoch in range(2):
    cost = 0
    for time, (x, adj, y) in enumerate(snapshots):
        cost = cost + torch.mean((model(x, adj) - y) ** 2)
    cost = cost / (time + 1)
    try:
        cost.backward()
    except RuntimeError as err:
        raised = (epoch, str(err))
        break
    optimizer.step()
    optimizer.zero_grad()

assert raised is not None and raised[0] == 1, "second epoch should fail"
assert "backward through the graph a second time" in raised[1], raised[1]
assert model.recurrent.weight.grad_fn is not None  # state still holds a graph
print("OK: carried GRU weight chains the graph across epochs")
