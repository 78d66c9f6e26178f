"""
expect: GL002 59
dynamic: confirm
source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/issues/80

The report points at EvolveGCN-O: every snapshot the recurrent cell evolves the GCN weight and
the layer then does `self.conv_layer.weight = torch.nn.Parameter(W)`. Wrapping the evolved
weight in a fresh Parameter rebuilds it as a new leaf that requires grad, so the loss is trained
through a tensor with no history: the recurrent cell and the initial weight (the parameters the
optimizer actually holds) never get a gradient; only the throw-away Parameter does. This
program rebuilds a small EvolveGCN-O on random temporal graphs for link-weight regression; the
asserts show the GRU cell's and the initial weight's .grad stay None and they never move, while
passing the evolved weight functionally trains them.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N, C = 12, 6


def normalized_adj(edge_index, n):
    A = torch.zeros(n, n)
    A[edge_index[0], edge_index[1]] = 1.0
    A = A + torch.eye(n)
    d = A.sum(1).rsqrt()
    return d[:, None] * A * d[None, :]


class GCNLayer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(c, c))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, x, adj, weight=None):
        w = self.weight if weight is None else weight
        return adj @ (x @ w)


class EvolveGCNO(nn.Module):
    def __init__(self, c, functional=False):
        super().__init__()
        self.initial_weight = nn.Parameter(torch.randn(1, c, c) * 0.3)
        self.recurrent = nn.GRU(c, c, batch_first=False)
        self.conv_layer = GCNLayer(c)
        self.functional = functional
        self.current = None

    def reset(self):
        self.current = self.initial_weight * 1.0

    def forward(self, x, adj):
        _, W = self.recurrent(self.current, self.current)
        self.current = W
        if self.functional:
            return self.conv_layer(x, adj, weight=W.squeeze(0))
        self.conv_layer.weight = torch.nn.Parameter(W.squeeze(0))
        return self.conv_layer(x, adj)


def run(model, snapshots, epochs=4):
    opt = torch.optim.Adam([model.initial_weight, *model.recurrent.parameters()], lr=1e-2)
    for _ in range(epochs):
        model.reset()
        loss = 0.0
        for x, adj, y in snapshots:
            h = model(x, adj)
            loss = loss + F.mse_loss(h.sum(1), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


snapshots = []
for t in range(5):
    ei = torch.randint(0, N, (2, 30))
    snapshots.append((torch.randn(N, C), normalized_adj(ei, N), torch.randn(N)))

model = EvolveGCNO(C)
w0 = model.recurrent.weight_hh_l0.detach().clone()
run(model, snapshots)
assert model.recurrent.weight_hh_l0.grad is None and model.initial_weight.grad is None
assert torch.equal(model.recurrent.weight_hh_l0, w0)

fixed = EvolveGCNO(C, functional=True)
w0 = fixed.recurrent.weight_hh_l0.detach().clone()
run(fixed, snapshots)
assert fixed.recurrent.weight_hh_l0.grad is not None
assert not torch.equal(fixed.recurrent.weight_hh_l0, w0)
print("p05 ok: re-wrapping the evolved weight as a Parameter starves the recurrent cell")
