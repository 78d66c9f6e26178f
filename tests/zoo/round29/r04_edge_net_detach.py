"""
expect: GL001 38
dynamic: confirm
source: https://github.com/nugraph/nugraph/pull/160

Message-passing GNN for particle-detector hits: an edge network scores each edge,
and the scores weight the messages a node aggregates. The edge scores were passed
on as `self.edge_net(...).detach()`, so the node-classification loss (the only
loss) cannot reach the edge network and it stays at its initial weights; the PR
removed the detach. The asserts show the edge net's grads are None with the
detach, and non-zero (and the node net unaffected) without it.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class EdgeNet(nn.Module):
    def __init__(self, h):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2 * h, h), nn.Tanh(), nn.Linear(h, 1))

    def forward(self, x, edge_index):
        src, dst = edge_index
        return torch.sigmoid(self.mlp(torch.cat([x[src], x[dst]], dim=1)))


class InteractionLayer(nn.Module):
    def __init__(self, h, cut_edges=True):
        super().__init__()
        self.edge_net = EdgeNet(h)
        self.node_net = nn.Linear(2 * h, h)
        self.cut_edges = cut_edges

    def forward(self, x, edge_index):
        w = self.edge_net(x, edge_index).detach() if self.cut_edges else self.edge_net(x, edge_index)
        src, dst = edge_index
        agg = torch.zeros_like(x).index_add(0, dst, w * x[src])
        return torch.relu(self.node_net(torch.cat([x, agg], dim=1)))


class HitClassifier(nn.Module):
    def __init__(self, d=6, h=16, classes=3, cut_edges=True):
        super().__init__()
        self.embed = nn.Linear(d, h)
        self.layers = nn.ModuleList([InteractionLayer(h, cut_edges) for _ in range(2)])
        self.head = nn.Linear(h, classes)

    def forward(self, x, edge_index):
        h = self.embed(x)
        for layer in self.layers:
            h = h + layer(h, edge_index)
        return self.head(h)


x = torch.randn(20, 6)
edge_index = torch.randint(0, 20, (2, 60))
labels = torch.randint(0, 3, (20,))

model = HitClassifier(cut_edges=True)
nn.functional.cross_entropy(model(x, edge_index), labels).backward()
for layer in model.layers:
    assert all(p.grad is None for p in layer.edge_net.parameters())
    assert layer.node_net.weight.grad.abs().sum() > 0

fixed = HitClassifier(cut_edges=False)
fixed.load_state_dict(model.state_dict())
nn.functional.cross_entropy(fixed(x, edge_index), labels).backward()
for layer in fixed.layers:
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in layer.edge_net.parameters())
print("ok")
