"""
expect: none
dynamic: dismiss
source: kind 7

A node-classification GNN keeps graph features in a small store object whose
features live in a dict attribute named `data` (like a DGL graph's ndata).
The loader writes store.data["x"]; the model's forward writes the hidden
features as store.data["h"] and reads them back with store.data["h"] for the
second message-passing layer. That is dict access, not Tensor.data, so the
graph stays intact: the asserts show both layers get gradients, their weights
change and training accuracy becomes high.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphStore:
    def __init__(self, edge_index, num_nodes):
        self.edge_index = edge_index
        self.num_nodes = num_nodes
        self.data = {}

    def propagate(self, feats):
        src, dst = self.edge_index
        agg = torch.zeros_like(feats).index_add(0, dst, feats[src])
        deg = torch.zeros(self.num_nodes).index_add(0, dst, torch.ones(src.numel())).clamp(min=1)
        return agg / deg.unsqueeze(-1) + feats


class TwoLayerGNN(nn.Module):
    def __init__(self, in_dim, hid, n_classes):
        super().__init__()
        self.lin1 = nn.Linear(in_dim, hid)
        self.lin2 = nn.Linear(hid, n_classes)

    def forward(self, store):
        store.data["h"] = F.relu(self.lin1(store.propagate(store.data["x"])))
        h = store.data["h"]
        return self.lin2(store.propagate(h))


if __name__ == "__main__":
    torch.manual_seed(0)
    n, n_classes = 60, 3
    labels = torch.arange(n) % n_classes
    src = torch.randint(0, n, (400,))
    dst = torch.where(torch.rand(400) < 0.8, src + n_classes, torch.randint(0, n, (400,))) % n
    store = GraphStore(torch.stack([src, dst]), n)
    store.data["x"] = F.one_hot(labels, n_classes).float() + 0.8 * torch.randn(n, n_classes)

    model = TwoLayerGNN(n_classes, 16, n_classes)
    opt = torch.optim.Adam(model.parameters(), lr=0.02)
    w1, w2 = model.lin1.weight.detach().clone(), model.lin2.weight.detach().clone()
    for _ in range(200):
        loss = F.cross_entropy(model(store), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert model.lin1.weight.grad is not None and model.lin2.weight.grad is not None
    assert not torch.equal(w1, model.lin1.weight.detach())
    assert not torch.equal(w2, model.lin2.weight.detach())
    acc = (model(store).argmax(-1) == labels).float().mean().item()
    assert acc > 0.9, acc
    print("ok: store.data dict keeps the graph; accuracy", acc)
