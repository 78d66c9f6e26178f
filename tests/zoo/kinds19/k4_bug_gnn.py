"""
expect: GL001 20
dynamic: confirm
source: kinds check 19, kind 4 (written for this check)

A node classifier with a GCN encoder and an MLP head records per-node saliency by
rebinding the hidden features through `fresh_leaf(h)` (detach + clone, then
`requires_grad_`). `h` is the GCN's output, not a user input, so the GCN layers get
no gradient although they are in the optimizer. I expect GL001 at the helper's
detach line (the cut that starves the GCN), not GL003, since the new leaf itself is
used correctly. The asserts show the GCN weights never move while the head does, and
that keeping `h` and using `h.retain_grad()` gives the GCN gradients.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def fresh_leaf(t):
    out = t.detach().clone()
    out.requires_grad_(True)
    return out


class GCNLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)

    def forward(self, x, a_hat):
        return F.relu(a_hat @ self.lin(x))


class NodeTrainer:
    def __init__(self, d_in, n_cls):
        self.gcn = nn.ModuleList([GCNLayer(d_in, 32), GCNLayer(32, 32)])
        self.head = nn.Linear(32, n_cls)
        params = list(self.gcn.parameters()) + list(self.head.parameters())
        self.opt = torch.optim.Adam(params, lr=1e-2)
        self.saliency = None

    def embed(self, x, a_hat):
        for layer in self.gcn:
            x = layer(x, a_hat)
        return x

    def fit_step(self, x, a_hat, y, mask):
        h = self.embed(x, a_hat)
        h = fresh_leaf(h)
        loss = F.cross_entropy(self.head(h)[mask], y[mask])
        self.opt.zero_grad()
        loss.backward()
        self.saliency = h.grad.norm(dim=1)
        self.opt.step()
        return loss.item()


def normalized_adjacency(n, p=0.1):
    a = (torch.rand(n, n) < p).float()
    a = ((a + a.t()) > 0).float() + torch.eye(n)
    d = a.sum(1).rsqrt()
    return d[:, None] * a * d[None, :]


torch.manual_seed(10)
N = 60
x, a_hat = torch.randn(N, 12), normalized_adjacency(N)
y, mask = torch.randint(0, 3, (N,)), torch.rand(N) < 0.5
tr = NodeTrainer(12, 3)
g0, h0 = tr.gcn[0].lin.weight.clone(), tr.head.weight.clone()
for _ in range(5):
    tr.fit_step(x, a_hat, y, mask)
assert not torch.equal(h0, tr.head.weight)
assert torch.equal(g0, tr.gcn[0].lin.weight), "GCN never moves"
assert all(p.grad is None for p in tr.gcn.parameters()) and tr.saliency.shape == (N,)
# fixed: keep the path and read the saliency with retain_grad()
h = tr.embed(x, a_hat)
h.retain_grad()
F.cross_entropy(tr.head(h)[mask], y[mask]).backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in tr.gcn.parameters())
assert h.grad is not None
print("k4_bug_gnn: rebuilt leaf on GCN output starves the GCN")
