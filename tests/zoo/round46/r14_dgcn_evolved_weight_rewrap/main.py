"""
expect: GL001 layers.py:47
dynamic: confirm
source: https://github.com/cgao-comp/DGCN/blob/b79d7168735fe13582215df1da3e916af52f58ff/code/pygcn/layers.py

A dynamic GCN for link prediction / clustering on graph snapshots (EvolveGCN-style):
for snapshot t >= 1 the GCN weight is produced by a matrix-GRU cell from the weight
learned on snapshot t-1. The layer wraps the evolved weight in nn.Parameter(...)
inside __init__, which makes a fresh leaf cut from the GRU's output. The GRU gate
matrices are registered in the model and handed to Adam, but no loss ever reaches
them: after training on the second snapshot their .grad is None and they have not
moved. The same model computing the evolved weight inside forward() gives the GRU
gates a gradient. Loss: a DGI-style contrast between true and shuffled node
features, as in the source repository.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import EvolvingGraphConvolution

torch.manual_seed(0)
torch.set_num_threads(1)

N_NODES, N_FEAT, HIDDEN = 20, 8, 8


class DGCN(nn.Module):
    def __init__(self, time_step, time_weight, wrap_as_parameter=True):
        super().__init__()
        self.gc = EvolvingGraphConvolution(N_FEAT, HIDDEN, time_step, time_weight, wrap_as_parameter)
        self.fc = nn.Linear(HIDDEN, HIDDEN, bias=False)
        self.prelu = nn.PReLU()

    def forward(self, x, adj):
        h, weight = self.gc(x, adj)
        h = self.prelu(h)
        neg_h = self.prelu(self.gc(x[torch.randperm(x.size(0))], adj)[0])
        summary = torch.sigmoid(h.mean(0))
        logits = torch.cat([h, neg_h]) @ self.fc(summary)
        labels = torch.cat([torch.ones(x.size(0)), torch.zeros(x.size(0))])
        return logits, labels, weight


def random_snapshot():
    a = (torch.rand(N_NODES, N_NODES) < 0.2).float()
    a = ((a + a.t() + torch.eye(N_NODES)) > 0).float()
    deg = a.sum(1)
    adj = a / torch.sqrt(deg[:, None] * deg[None, :])
    return torch.randn(N_NODES, N_FEAT), adj


def train(model, x, adj, epochs=15):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(epochs):
        logits, labels, _ = model(x, adj)
        loss = F.binary_cross_entropy_with_logits(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        _, _, weight = model(x, adj)
    return weight.detach()


def run(wrap_as_parameter):
    torch.manual_seed(1)
    snaps = [random_snapshot(), random_snapshot()]
    first = DGCN(time_step=0, time_weight=None)
    time_weight = train(first, *snaps[0])
    second = DGCN(time_step=1, time_weight=time_weight, wrap_as_parameter=wrap_as_parameter)
    gru_params = list(second.gc.evolve_weights.parameters())
    start = [p.detach().clone() for p in gru_params]
    train(second, *snaps[1])
    return gru_params, start


gru_params, start = run(wrap_as_parameter=True)
assert all(p.grad is None for p in gru_params), "the weight-evolving GRU should get no gradient"
assert all(torch.equal(s, p) for s, p in zip(start, gru_params))

gru_params, start = run(wrap_as_parameter=False)
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in gru_params)
assert any(not torch.equal(s, p) for s, p in zip(start, gru_params))
print("Parameter() re-wrap leaves the evolving GRU untrained; evolving in forward trains it")
