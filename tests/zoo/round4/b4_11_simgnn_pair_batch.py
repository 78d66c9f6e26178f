"""expect: GL004 91
dynamic: confirm
source: https://github.com/benedekrozemberczki/SimGNN/issues/41

SimGNN-style graph-pair similarity regression: two GCN layers embed each
graph, an attention pooling produces a graph vector, a neural tensor network
compares the two vectors and an MLP predicts the normalised graph edit distance
score. The trainer's process_batch sums the per-pair losses of a batch and calls
`losses.backward(retain_graph=True)` before the optimizer step. Nothing ever
backpropagates through that batch graph again (each batch rebuilds its graph),
so the flag only keeps every saved activation of the batch alive through the
optimizer step until the function returns; training with retain_graph=False
yields exactly the same weights.
"""
import weakref

import torch
import torch.nn as nn
import torch.nn.functional as F


class DenseGCN(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.lin = nn.Linear(cin, cout)

    def forward(self, x, adj):
        a = adj + torch.eye(adj.shape[0])
        deg = a.sum(1)
        norm = a / torch.sqrt(deg.unsqueeze(0) * deg.unsqueeze(1))
        return norm @ self.lin(x)


class AttentionPool(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.w = nn.Parameter(torch.randn(dim, dim) * 0.1)

    def forward(self, h):
        ctx = torch.tanh(h.mean(0) @ self.w)
        scores = torch.sigmoid(h @ ctx)
        return (scores.unsqueeze(1) * h).sum(0)


class TensorNetwork(nn.Module):
    def __init__(self, dim, k):
        super().__init__()
        self.W = nn.Parameter(torch.randn(k, dim, dim) * 0.1)
        self.V = nn.Linear(2 * dim, k)

    def forward(self, e1, e2):
        bil = torch.einsum("d,kde,e->k", e1, self.W, e2)
        return F.relu(bil + self.V(torch.cat([e1, e2])))


class SimGNN(nn.Module):
    def __init__(self, n_labels=4, dim=8, k=4):
        super().__init__()
        self.gcn1, self.gcn2 = DenseGCN(n_labels, dim), DenseGCN(dim, dim)
        self.pool = AttentionPool(dim)
        self.ntn = TensorNetwork(dim, k)
        self.score = nn.Sequential(nn.Linear(k, 8), nn.ReLU(), nn.Linear(8, 1))

    def embed(self, x, adj):
        h = F.relu(self.gcn1(x, adj))
        return self.pool(self.gcn2(h, adj))

    def forward(self, pair):
        e1 = self.embed(pair["x1"], pair["adj1"])
        e2 = self.embed(pair["x2"], pair["adj2"])
        return torch.sigmoid(self.score(self.ntn(e1, e2))).squeeze()


def random_graph(n, n_labels=4):
    adj = (torch.rand(n, n) < 0.4).float().triu(1)
    x = F.one_hot(torch.randint(0, n_labels, (n,)), n_labels).float()
    return x, adj + adj.t()


class SimGNNTrainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def process_batch(self, batch):
        self.optimizer.zero_grad()
        losses = 0
        for pair in batch:
            prediction = self.model(pair)
            losses = losses + F.mse_loss(prediction, pair["target"])
        losses.backward(retain_graph=True)
        self.optimizer.step()
        return losses.item()

    def fit(self, batches, epochs=2):
        for _ in range(epochs):
            for batch in batches:
                self.process_batch(batch)


class _Holder:
    def __init__(self, t):
        self.t = t.detach()


def train(force_free):
    torch.manual_seed(0)
    pairs = []
    for _ in range(6):
        x1, a1 = random_graph(5)
        x2, a2 = random_graph(6)
        pairs.append({"x1": x1, "adj1": a1, "x2": x2, "adj2": a2, "target": torch.rand(())})
    batches = [pairs[:3], pairs[3:]]
    trainer = SimGNNTrainer(SimGNN())
    live, alive_at_step = [], []

    def pack(t):
        h = _Holder(t)
        live.append(weakref.ref(h))
        return h

    trainer.optimizer.register_step_pre_hook(
        lambda opt, args, kwargs: alive_at_step.append(sum(r() is not None for r in live)))
    original_backward = torch.Tensor.backward
    if force_free:
        def freeing_backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
            return original_backward(self, gradient, False, create_graph, inputs)
        torch.Tensor.backward = freeing_backward
    try:
        with torch.autograd.graph.saved_tensors_hooks(pack, lambda h: h.t):
            trainer.fit(batches)
    finally:
        torch.Tensor.backward = original_backward
    return trainer.model, alive_at_step


def main():
    kept_model, kept = train(force_free=False)
    freed_model, freed = train(force_free=True)
    assert min(kept) > 0 and max(freed) == 0
    for a, b in zip(kept_model.parameters(), freed_model.parameters()):
        assert torch.allclose(a, b)
    print("retained batch graphs were never reused; saved tensors alive at each step:", kept)


if __name__ == "__main__":
    main()
