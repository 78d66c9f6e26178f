"""
expect: none
dynamic: dismiss
source: kind 5

A citation-graph GNN has a FeatureCentering member that keeps a running mean
of aggregated node features, but detaches the statistic each call before
storing it. The training loop uses plain loss.backward(). The asserts show
the trace carries no graph, the node-embedding table and classifier get
gradients, and training accuracy reaches a high level.
"""
import torch
import torch.nn as nn


class FeatureCentering(nn.Module):
    def __init__(self, dim, decay=0.9):
        super().__init__()
        self.decay = decay
        self.trace = torch.zeros(dim)

    def forward(self, h):
        batch_mean = h.mean(0).detach()
        self.trace = self.decay * self.trace + (1 - self.decay) * batch_mean
        return h - self.trace


class MeanAggGNN(nn.Module):
    def __init__(self, n_nodes, dim=16, n_classes=3):
        super().__init__()
        self.node_emb = nn.Embedding(n_nodes, dim)
        self.center = FeatureCentering(dim)
        self.out = nn.Linear(dim, n_classes)

    def forward(self, adj_norm, nodes):
        h = adj_norm @ self.node_emb(nodes)
        return self.out(torch.relu(self.center(h)))


if __name__ == "__main__":
    torch.manual_seed(8)
    n = 40
    adj = (torch.rand(n, n) < 0.1).float() + torch.eye(n)
    adj_norm = adj / adj.sum(1, keepdim=True)
    labels = torch.randint(0, 3, (n,))
    model = MeanAggGNN(n)
    opt = torch.optim.Adam(model.parameters(), lr=3e-2)
    for _ in range(150):
        opt.zero_grad()
        logits = model(adj_norm, torch.arange(n))
        loss = nn.functional.cross_entropy(logits, labels)
        loss.backward()
        assert model.node_emb.weight.grad.abs().sum() > 0
        assert model.out.weight.grad.abs().sum() > 0
        opt.step()
        assert model.center.trace.grad_fn is None
    acc = (logits.argmax(-1) == labels).float().mean().item()
    assert acc > 0.8, acc
    print("ok: detached trace, plain backward, accuracy", acc)
