"""
expect: none
dynamic: dismiss
source: https://github.com/leffff/graphormer-pyg/blob/cb644583802e1e76240247ba95735dc8fc6678e1/graphormer/layers.py

In this Graphormer implementation the centrality encoding adds learnable in-degree and
out-degree embeddings to the node states with an augmented assignment,
`x += self.z_in[in_degree] + self.z_out[out_degree]`, right after the input projection.
An in-place `+=` on an activation in the middle of a graph transformer looks like the
classic "modified by an inplace operation" trap, but the tensor being edited is the fresh
output of the linear input projection: the linear layer saved its input and weight for the
backward pass, not its output, and nothing else has used `x` yet.  This reproduction builds
a small Graphormer-style model (node projection, centrality encoding, one attention layer
with a shortest-path-distance bias, mean readout) on random graphs.  The asserts show the
backward pass succeeds, the degree embeddings and the projection receive gradients that
match an out-of-place version exactly, and a short regression fit lowers the loss.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class CentralityEncoding(nn.Module):
    def __init__(self, max_in_degree, max_out_degree, node_dim, inplace=True):
        super().__init__()
        self.z_in = nn.Parameter(torch.randn(max_in_degree, node_dim))
        self.z_out = nn.Parameter(torch.randn(max_out_degree, node_dim))
        self.inplace = inplace

    def forward(self, x, in_degree, out_degree):
        if self.inplace:
            x += self.z_in[in_degree] + self.z_out[out_degree]
        else:
            x = x + self.z_in[in_degree] + self.z_out[out_degree]
        return x


class TinyGraphormer(nn.Module):
    def __init__(self, in_dim=5, dim=16, max_deg=8, max_dist=6, inplace=True):
        super().__init__()
        self.node_in_lin = nn.Linear(in_dim, dim)
        self.centrality = CentralityEncoding(max_deg, max_deg, dim, inplace)
        self.dist_bias = nn.Embedding(max_dist + 1, 1)
        self.q, self.k, self.v = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.out = nn.Linear(dim, 1)

    def forward(self, x, in_deg, out_deg, spd):
        x = self.node_in_lin(x)
        x = self.centrality(x, in_deg, out_deg)
        scores = self.q(x) @ self.k(x).t() / 4.0 + self.dist_bias(spd).squeeze(-1)
        x = x + torch.softmax(scores, dim=-1) @ self.v(x)
        return self.out(x).mean()


def random_graph(n=7):
    adj = (torch.rand(n, n) < 0.35).float()
    adj.fill_diagonal_(0)
    dist = torch.full((n, n), 6, dtype=torch.long)
    dist.fill_diagonal_(0)
    reach = torch.eye(n)
    for hop in range(1, 6):
        reach = ((reach @ adj) > 0).float()
        dist = torch.where((reach > 0) & (dist == 6), torch.full_like(dist, hop), dist)
    in_deg = adj.sum(0).long().clamp(max=7)
    out_deg = adj.sum(1).long().clamp(max=7)
    return torch.randn(n, 5), in_deg, out_deg, dist


graphs = [random_graph() for _ in range(12)]
targets = torch.randn(12)

m_inplace = TinyGraphormer(inplace=True)
m_ref = TinyGraphormer(inplace=False)
m_ref.load_state_dict(m_inplace.state_dict())
for m in (m_inplace, m_ref):
    m.zero_grad()
    loss = sum((m(*g) - t) ** 2 for g, t in zip(graphs, targets)) / len(graphs)
    loss.backward()
for (name, p), q in zip(m_inplace.named_parameters(), m_ref.parameters()):
    assert p.grad is not None and torch.allclose(p.grad, q.grad, atol=1e-6), name
assert m_inplace.centrality.z_in.grad.abs().sum() > 0
assert m_inplace.node_in_lin.weight.grad.abs().sum() > 0

opt = torch.optim.Adam(m_inplace.parameters(), lr=0.01)
first = None
for step in range(100):
    opt.zero_grad()
    loss = sum((m_inplace(*g) - t) ** 2 for g, t in zip(graphs, targets)) / len(graphs)
    loss.backward()
    opt.step()
    first = loss.item() if first is None else first
assert loss.item() < 0.3 * first, (first, loss.item())
print("in-place centrality encoding: gradients match the out-of-place model; loss %.3f -> %.3f" % (first, loss.item()))
