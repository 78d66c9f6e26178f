"""expect: GL001 24
dynamic: confirm
source: https://github.com/queenie88/A-GCN/issues/4

Node classifier whose graph-convolution layer learns its own adjacency matrix from two
projections (theta, phi) of the node features. The layer's forward detaches the learned
adjacency before propagating, so theta and phi sit in the optimizer but never get a gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LearnedAdjacencyConv(nn.Module):
    def __init__(self, in_dim, emb_dim, out_dim):
        super().__init__()
        self.theta = nn.Linear(in_dim, emb_dim)
        self.phi = nn.Linear(in_dim, emb_dim)
        self.proj = nn.Linear(in_dim, out_dim)

    def forward(self, feats):
        scores = self.theta(feats) @ self.phi(feats).t()
        adj = F.softmax(scores, dim=-1)
        adj = adj.detach()
        return self.proj(adj @ feats)


class NodeClassifier(nn.Module):
    def __init__(self, in_dim, hidden, n_cls):
        super().__init__()
        self.conv = LearnedAdjacencyConv(in_dim, 16, hidden)
        self.head = nn.Linear(hidden, n_cls)

    def forward(self, feats):
        return self.head(F.relu(self.conv(feats)))


torch.manual_seed(0)
node_feats = torch.randn(30, 8)
node_labels = torch.randint(0, 3, (30,))
model = NodeClassifier(8, 12, 3)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
theta_before = model.conv.theta.weight.detach().clone()

for epoch in range(5):
    opt.zero_grad()
    loss = F.cross_entropy(model(node_feats), node_labels)
    loss.backward()
    opt.step()

assert model.conv.theta.weight.grad is None
assert model.conv.phi.weight.grad is None
assert torch.equal(model.conv.theta.weight, theta_before)
assert model.conv.proj.weight.grad is not None
print("ok: adjacency projections never trained")
