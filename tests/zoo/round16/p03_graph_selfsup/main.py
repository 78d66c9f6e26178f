"""
expect: GL003 edge_losses.py:16
dynamic: confirm
source: https://github.com/pyg-team/pytorch_geometric/issues/3009

The reporter wrote a self-supervised graph loss (sum of dot products of neighbouring node
features) and saw the loss stay constant during training; inside the loss each edge score was
built as dot(...).detach().clone().requires_grad_(True). This program keeps that loss in its own
module and trains a small message-passing encoder with it. The asserts show the switched-on
score is a fresh leaf: after backward every encoder parameter has grad None and the optimizer
step leaves the weights unchanged, while the same loss without the detach/switch trains them.
"""
import torch
import torch.nn as nn

from edge_losses import EdgeAgreementLoss, EdgeAgreementLossVec

torch.manual_seed(0)


class MeanAggEncoder(nn.Module):
    def __init__(self, d_in, d_hid):
        super().__init__()
        self.lin_self = nn.Linear(d_in, d_hid)
        self.lin_nbr = nn.Linear(d_in, d_hid)

    def forward(self, x, adj_norm):
        return torch.tanh(self.lin_self(x) + self.lin_nbr(adj_norm @ x))


def make_graph(n=12):
    src = torch.arange(n)
    dst = (src + 1) % n
    edge_index = torch.stack([torch.cat([src, dst]), torch.cat([dst, src])])
    adj = torch.zeros(n, n)
    adj[edge_index[0], edge_index[1]] = 1.0
    adj_norm = adj / adj.sum(1, keepdim=True)
    return edge_index, adj_norm


def train_once(loss_fn):
    torch.manual_seed(1)
    x = torch.randn(12, 5)
    edge_index, adj_norm = make_graph()
    enc = MeanAggEncoder(5, 8)
    opt = torch.optim.SGD(enc.parameters(), lr=0.1)
    before = [p.detach().clone() for p in enc.parameters()]
    opt.zero_grad()
    loss = loss_fn(enc(x, adj_norm), edge_index)
    loss.backward()
    grads = [p.grad for p in enc.parameters()]
    opt.step()
    changed = any(not torch.equal(b, p) for b, p in zip(before, enc.parameters()))
    return grads, changed


grads, changed = train_once(EdgeAgreementLoss())
assert all(g is None for g in grads), "encoder should receive no gradient"
assert not changed, "encoder weights should not move"

grads_ok, changed_ok = train_once(EdgeAgreementLossVec())
assert all(g is not None and g.abs().sum() > 0 for g in grads_ok)
assert changed_ok
print("ok: detached+requires_grad_ edge score leaves the encoder untrained")
