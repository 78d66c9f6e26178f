"""expect: GL002 kep_loss.py:13
dynamic: confirm
source: https://github.com/pfpimenta/kep_gnn/commit/afd2ac44bd215b22a0b0380b86451cbf517c9033

A message-passing GNN scores every edge of a kidney-exchange compatibility graph (in the solution or not), the
trainer turns the scores into hard predictions with argmax, and the unsupervised KEP loss compares the weight
of the chosen edges with the total weight. argmax has no gradient, so the loss came out without a grad_fn and
the author wrapped it as `Variable(loss, requires_grad=True)`: a brand-new leaf that backward() accepts but
that is connected to nothing, so the GNN never receives a gradient. The fix (the linked commit) multiplies the
hard prediction by the edge scores so the loss stays on the graph. The asserts show every GNN parameter has
.grad None and stays bit-identical after training with the wrapped loss, while the score-masked loss gives
gradients and raises the weight of the selected edges.
"""
import torch
import torch.nn as nn

from kep_loss import KEPLoss

torch.manual_seed(0)
torch.set_num_threads(1)


class EdgeScorer(nn.Module):
    def __init__(self, n_feat=4, hid=16, rounds=2):
        super().__init__()
        self.inp = nn.Linear(n_feat, hid)
        self.msg = nn.ModuleList(nn.Linear(2 * hid, hid) for _ in range(rounds))
        self.edge_mlp = nn.Sequential(nn.Linear(2 * hid + 1, hid), nn.ReLU(), nn.Linear(hid, 2))

    def forward(self, x, edge_index, edge_weights):
        src, dst = edge_index
        h = torch.relu(self.inp(x))
        for layer in self.msg:
            agg = torch.zeros_like(h).index_add(0, dst, h[src])
            deg = torch.zeros(h.shape[0]).index_add(0, dst, torch.ones(src.shape[0])).clamp(min=1)
            h = torch.relu(layer(torch.cat([h, agg / deg[:, None]], dim=1)))
        return self.edge_mlp(torch.cat([h[src], h[dst], edge_weights[:, None]], dim=1))


def random_pool(n_nodes=12, n_edges=40):
    x = torch.randn(n_nodes, 4)
    edge_index = torch.randint(0, n_nodes, (2, n_edges))
    w = torch.rand(n_edges)
    return x, edge_index, w


def train(criterion, graphs, epochs=40):
    torch.manual_seed(1)
    model = EdgeScorer()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    start = [p.detach().clone() for p in model.parameters()]
    first = last = None
    for _ in range(epochs):
        for x, ei, w in graphs:
            scores = model(x, ei, w)
            pred = torch.argmax(scores, dim=1)
            loss = criterion(scores, pred, w)
            opt.zero_grad()
            loss.backward()
            opt.step()
            first = loss.item() if first is None else first
            last = loss.item()
    return model, start, first, last


graphs = [random_pool() for _ in range(4)]

model, start, _, _ = train(KEPLoss(fixed=False), graphs)
assert all(p.grad is None for p in model.parameters())
assert all(torch.equal(a, b) for a, b in zip(start, model.parameters()))

model, start, first, last = train(KEPLoss(fixed=True), graphs)
assert all(p.grad is not None for p in model.parameters())
assert any(not torch.equal(a, b) for a, b in zip(start, model.parameters()))
assert last < first
print("ok: Variable-wrapped KEP loss leaves the GNN untouched; score-masked loss trains (%.3f -> %.3f)" % (first, last))
