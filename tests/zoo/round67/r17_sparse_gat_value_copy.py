"""
expect: GL002 32
dynamic: confirm
source: https://github.com/diegoantognini/pyGAT/pull/13

Graph attention networks, sparse GAT layer. pyGAT's first sparse implementation
computed the unnormalised attention score of every edge (exp(-LeakyReLU(a^T[Wh_i||Wh_j])))
and then packed those scores into a sparse adjacency matrix to aggregate neighbours with
spmm. The sparse constructor of that PyTorch version only copied the values ("creation
is just copying the value of tensor"), so the attention vector `a` never received a
gradient: the network trained, but as a fixed-weight GCN. The fix in the pull request
introduced a custom autograd spmm. Here the value copy is written the way it is usually
written today, torch.tensor(edge_e), inside the helper that builds the sparse matrix. The
asserts show that after backward the attention vector has no gradient and stays at its
initial value through training, while W does train; with the values passed through
(gradient-carrying sparse tensor) `a` gets a gradient and moves, and the loss drops.
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.filterwarnings("ignore", message="To copy construct from a tensor")
torch.manual_seed(0)
torch.set_num_threads(1)


def sparse_adj(edge, values, n, copy_values=True):
    """Pack per-edge scores into an n x n sparse matrix for spmm."""
    if copy_values:
        vals = torch.tensor(values)
    else:
        vals = values
    return torch.sparse_coo_tensor(edge, vals, (n, n))


class SpGraphAttentionLayer(nn.Module):
    def __init__(self, in_features, out_features, alpha=0.2, concat=True):
        super().__init__()
        self.W = nn.Parameter(torch.empty(in_features, out_features))
        self.a = nn.Parameter(torch.empty(1, 2 * out_features))
        nn.init.xavier_normal_(self.W, gain=1.414)
        nn.init.xavier_normal_(self.a, gain=1.414)
        self.leakyrelu = nn.LeakyReLU(alpha)
        self.concat = concat
        self.copy_values = True

    def forward(self, x, adj):
        n = x.size(0)
        edge = adj.nonzero().t()
        h = x @ self.W
        edge_h = torch.cat((h[edge[0], :], h[edge[1], :]), dim=1).t()
        edge_e = torch.exp(-self.leakyrelu(self.a.mm(edge_h).squeeze()))
        att = sparse_adj(edge, edge_e, n, copy_values=self.copy_values)
        e_rowsum = torch.sparse.mm(att, torch.ones(n, 1))
        h_prime = torch.sparse.mm(att, h) / e_rowsum
        return F.elu(h_prime) if self.concat else h_prime


class SpGAT(nn.Module):
    def __init__(self, nfeat, nhid, nclass):
        super().__init__()
        self.att1 = SpGraphAttentionLayer(nfeat, nhid)
        self.att2 = SpGraphAttentionLayer(nhid, nclass, concat=False)

    def forward(self, x, adj):
        return F.log_softmax(self.att2(self.att1(x, adj), adj), dim=1)

    def set_copy(self, flag):
        self.att1.copy_values = flag
        self.att2.copy_values = flag


def make_graph(n=60, feats=8, classes=3):
    labels = torch.randint(0, classes, (n,))
    x = torch.randn(n, feats) + F.one_hot(labels, feats).float() * 1.5
    same = labels[:, None] == labels[None, :]
    adj = ((torch.rand(n, n) < 0.15) & same) | (torch.rand(n, n) < 0.03)
    adj = (adj | adj.t() | torch.eye(n, dtype=torch.bool)).float()
    return x, adj, labels


def train(model, x, adj, labels, epochs=60):
    opt = torch.optim.Adam(model.parameters(), lr=0.02)
    losses = []
    for _ in range(epochs):
        opt.zero_grad()
        loss = F.nll_loss(model(x, adj), labels)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


x, adj, labels = make_graph()

# default: the sparse matrix is built from a copy of the attention scores
torch.manual_seed(1)
model = SpGAT(8, 16, 3)
a0 = model.att1.a.detach().clone()
F.nll_loss(model(x, adj), labels).backward()
assert model.att1.a.grad is None and model.att2.a.grad is None
assert model.att1.W.grad is not None and model.att1.W.grad.abs().sum() > 0
model.zero_grad()
buggy_losses = train(model, x, adj, labels)
assert torch.equal(model.att1.a.detach(), a0)          # attention never learned
print(f"value copy: loss {buggy_losses[0]:.3f} -> {buggy_losses[-1]:.3f}, a unchanged")

# fixed: keep the scores attached to the graph
torch.manual_seed(1)
model = SpGAT(8, 16, 3)
model.set_copy(False)
a0 = model.att1.a.detach().clone()
F.nll_loss(model(x, adj), labels).backward()
assert model.att1.a.grad is not None and model.att1.a.grad.abs().sum() > 0
model.zero_grad()
fixed_losses = train(model, x, adj, labels)
moved = (model.att1.a.detach() - a0).abs().sum().item()
print(f"fixed: loss {fixed_losses[0]:.3f} -> {fixed_losses[-1]:.3f}, a moved {moved:.3f}")
assert moved > 0.05
assert fixed_losses[-1] < 0.5 * fixed_losses[0]
print("OK: rebuilding the attention values cuts `a` off; passing them through trains it")
