"""
expect: GL003 57
dynamic: confirm
source: kind 6

A two-layer graph convolution network is trained for link prediction on a random graph.
Node embeddings are computed under torch.no_grad() (to save memory) and then switched on
with requires_grad_(), so the dot-product link loss backpropagates into a fresh leaf instead
of the network: the GCN weights' .grad stays None and the weights never change, while a
variant that computes the embeddings with recording on trains them.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GCN(nn.Module):
    def __init__(self, in_dim=10, hid=16, out=8):
        super().__init__()
        self.lin1 = nn.Linear(in_dim, hid)
        self.lin2 = nn.Linear(hid, out)

    def forward(self, adj_norm, feats):
        h = F.relu(adj_norm @ self.lin1(feats))
        return adj_norm @ self.lin2(h)


def normalise(adj):
    adj = adj + torch.eye(adj.shape[0])
    d = adj.sum(1).rsqrt()
    return d[:, None] * adj * d[None, :]


def link_loss(emb, pos, neg):
    pos_score = (emb[pos[0]] * emb[pos[1]]).sum(-1)
    neg_score = (emb[neg[0]] * emb[neg[1]]).sum(-1)
    return F.binary_cross_entropy_with_logits(pos_score, torch.ones_like(pos_score)) + \
        F.binary_cross_entropy_with_logits(neg_score, torch.zeros_like(neg_score))


def main():
    torch.manual_seed(0)
    n = 30
    adj = (torch.rand(n, n) < 0.15).float()
    adj = ((adj + adj.t()) > 0).float().fill_diagonal_(0)
    adj_norm = normalise(adj)
    feats = torch.randn(n, 10)
    pos = adj.nonzero().t()
    neg = torch.randint(0, n, pos.shape)

    gcn = GCN()
    opt = torch.optim.Adam(gcn.parameters(), lr=1e-2)
    before = gcn.lin1.weight.clone()
    for _ in range(3):
        with torch.no_grad():
            emb = gcn(adj_norm, feats)
        emb.requires_grad_()
        loss = link_loss(emb, pos, neg)
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert gcn.lin1.weight.grad is None
    assert torch.equal(gcn.lin1.weight, before)

    ref = GCN()
    ref_opt = torch.optim.Adam(ref.parameters(), lr=1e-2)
    ref_before = ref.lin1.weight.clone()
    loss = link_loss(ref(adj_norm, feats), pos, neg)
    ref_opt.zero_grad()
    loss.backward()
    ref_opt.step()
    assert not torch.equal(ref.lin1.weight, ref_before)
    print("ok: GCN never trained from embeddings re-enabled after no_grad")


if __name__ == "__main__":
    main()
