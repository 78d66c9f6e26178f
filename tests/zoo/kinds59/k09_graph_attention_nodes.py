"""
expect: none
dynamic: dismiss
source: none, invented

Node classification on a two-block stochastic block model with a dot-product graph-attention
layer. The layer takes `score_fn=masked_scores` as a default constructor argument, stores it and
calls it in `forward`. `masked_scores` fills the non-edges in place (`scores.masked_fill_(...)`),
but it does so on the scaled matmul output before any op has saved it; the softmax that saves its
output runs afterwards on the filled scores and nothing edits the softmax output. So this is
correct. The asserts check that the query/key projections receive non-zero gradients and that the
two-layer model classifies the nodes well after training.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N, FEAT, CLASSES = 60, 8, 2


def make_graph():
    y = torch.arange(N) % CLASSES
    same = y[:, None] == y[None, :]
    prob = torch.where(same, torch.tensor(0.3), torch.tensor(0.02))
    adj = (torch.rand(N, N) < prob).float()
    adj = ((adj + adj.t()) > 0).float()
    adj.fill_diagonal_(1.0)
    x = F.one_hot(y, FEAT).float() * 0.6 + torch.randn(N, FEAT)
    return x, adj, y


def masked_scores(q, k, adj):
    scores = q @ k.t() / math.sqrt(q.size(-1))
    scores.masked_fill_(adj == 0, -1e9)
    return scores


class DotGraphAttention(nn.Module):
    def __init__(self, d_in, d_out, score_fn=masked_scores):
        super().__init__()
        self.query = nn.Linear(d_in, d_out)
        self.key = nn.Linear(d_in, d_out)
        self.value = nn.Linear(d_in, d_out)
        self.score_fn = score_fn

    def forward(self, h, adj):
        attn = torch.softmax(self.score_fn(self.query(h), self.key(h), adj), dim=-1)
        return attn @ self.value(h)


class NodeClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.gat1 = DotGraphAttention(FEAT, 16)
        self.gat2 = DotGraphAttention(16, CLASSES)

    def forward(self, x, adj):
        return self.gat2(F.elu(self.gat1(x, adj)), adj)


if __name__ == "__main__":
    x, adj, y = make_graph()
    model = NodeClassifier()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)
    for epoch in range(150):
        loss = F.cross_entropy(model(x, adj), y)
        opt.zero_grad()
        loss.backward()
        if epoch == 0:
            for lin in (model.gat1.query, model.gat1.key):
                assert lin.weight.grad is not None and lin.weight.grad.abs().sum() > 0
        opt.step()
    with torch.no_grad():
        acc = (model(x, adj).argmax(1) == y).float().mean().item()
    assert acc > 0.9, acc
    print("k09_graph_attention_nodes: all checks passed")
