"""
expect: GL002 81
dynamic: confirm
source: https://github.com/im0j/graph-mining-project/blob/e82ae7d80c359b23bf84431acf88b32c09848c27/train.py

Co-author link prediction with a graph attention encoder. For every training
author pair the script adds a hinge term max(0, margin - <z_u, z_v>) to a
running Python-level loss, and because backward() then complained, the total
is wrapped with torch.tensor(loss, requires_grad=True). That builds a brand
new leaf holding only the number: backward() stops at it, the attention
encoder gets no gradient and Adam never changes it, while the printed loss
looks perfectly normal. The asserts show grad is None for every encoder
weight and that the weights are unchanged after training, while summing the
hinge terms as tensors trains the encoder and lowers the loss.
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.filterwarnings("ignore", message="To copy construct from a tensor")


class GraphAttentionLayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim, bias=False)
        self.att_src = nn.Parameter(torch.randn(out_dim) * 0.1)
        self.att_dst = nn.Parameter(torch.randn(out_dim) * 0.1)

    def forward(self, x, edge_index):
        h = self.lin(x)
        src, dst = edge_index
        logits = F.leaky_relu((h[src] * self.att_src).sum(-1) + (h[dst] * self.att_dst).sum(-1), 0.2)
        weights = torch.exp(logits - logits.max())
        denom = torch.zeros(x.shape[0]).index_add(0, dst, weights)
        alpha = weights / denom[dst]
        return torch.zeros_like(h).index_add(0, dst, alpha.unsqueeze(-1) * h[src])


class GATEncoder(nn.Module):
    def __init__(self, in_dim, hidden, out_dim):
        super().__init__()
        self.gat1 = GraphAttentionLayer(in_dim, hidden)
        self.gat2 = GraphAttentionLayer(hidden, out_dim)

    def forward(self, x, edge_index):
        return self.gat2(F.elu(self.gat1(x, edge_index)), edge_index)


def coauthor_graph(n_authors=30, n_groups=3, seed=0):
    g = torch.Generator().manual_seed(seed)
    group = torch.arange(n_authors) % n_groups
    edges = [(i, i) for i in range(n_authors)]
    for i in range(n_authors):
        for j in range(n_authors):
            if i != j and group[i] == group[j] and torch.rand(1, generator=g) < 0.4:
                edges.append((i, j))
    x = torch.randn(n_authors, 8, generator=g) + F.one_hot(group, 8).float()
    return x, torch.tensor(edges).t(), group


def train(keep_graph, epochs=60, margin=1.0):
    torch.manual_seed(0)
    x, edge_index, group = coauthor_graph()
    net = GATEncoder(8, 16, 8)
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-2)
    pairs = [(i, j) for i in range(30) for j in range(i + 1, 30) if group[i] == group[j]][:40]
    w0 = net.gat1.lin.weight.detach().clone()
    history, grads = [], []
    for _ in range(epochs):
        z = F.normalize(net(x, edge_index), dim=-1)
        loss = 0
        for u, v in pairs:
            sim = torch.dot(z[u], z[v])
            loss += max(0, -sim + margin)
        if keep_graph:
            loss = loss / len(pairs)
        else:
            loss = torch.tensor(loss / len(pairs), requires_grad=True)
        optimizer.zero_grad()
        loss.backward()
        grads.append(net.gat1.lin.weight.grad)
        optimizer.step()
        history.append(loss.item())
    return net, w0, grads, history


if __name__ == "__main__":
    torch.set_num_threads(1)

    net, w0, grads, history = train(keep_graph=False)
    assert all(g is None for g in grads)
    assert torch.equal(net.gat1.lin.weight, w0)
    assert all(p.grad is None for p in net.parameters())
    assert history[-1] == history[0]  # same encoder, same loss, every epoch

    net_ok, w0_ok, grads_ok, history_ok = train(keep_graph=True)
    assert all(g is not None for g in grads_ok)
    assert not torch.equal(net_ok.gat1.lin.weight, w0_ok)
    assert history_ok[-1] < 0.5 * history_ok[0], (history_ok[0], history_ok[-1])
    print(f"rebuilt loss stuck at {history[-1]:.3f}; tensor loss {history_ok[0]:.3f} -> {history_ok[-1]:.3f}")
