import torch
import torch.nn as nn


class GraphConv(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.self_lin = nn.Linear(cin, cout)
        self.nbr_lin = nn.Linear(cin, cout, bias=False)

    def forward(self, x, adj):
        return self.self_lin(x) + self.nbr_lin(adj @ x)


class NodeClassifier(nn.Module):
    def __init__(self, in_dim, hidden, n_classes, depth=2):
        super().__init__()
        dims = [in_dim] + [hidden] * depth
        self.convs = nn.ModuleList(GraphConv(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.head = nn.Linear(hidden, n_classes)

    def _encode(self, x, adj):
        for conv in self.convs:
            x = torch.relu(conv(x, adj))
        return x

    def forward(self, x, adj):
        return self.classify(self._encode(x, adj))

    @torch.no_grad()
    def propagate(self, x, adj):
        """Node embeddings for all nodes, e.g. to cache them for fast serving."""
        return self._encode(x, adj)

    def classify(self, h):
        return self.head(h)
