"""
expect: GL001 53
dynamic: confirm
source: kinds check 21, kind 1 (written for this check)

Node classification: a two-layer GCN encoder produces node embeddings that are
detached before a separate nn.Sequential head classifies them, and one Adam
optimizer holds both networks. The encoder has no other loss, so it never trains
while the head does. The asserts show the encoder's grads stay None and its
weights unchanged after five steps while the head's move, and that the same loss
without the cut does reach every encoder parameter.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GCNLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)

    def forward(self, x, a_hat):
        return a_hat @ self.lin(x)


class GCNEncoder(nn.Module):
    def __init__(self, d_in, d_hid):
        super().__init__()
        self.l1 = GCNLayer(d_in, d_hid)
        self.l2 = GCNLayer(d_hid, d_hid)

    def forward(self, x, a_hat):
        return self.l2(F.relu(self.l1(x, a_hat)), a_hat)


def normalized_adjacency(n, p=0.3):
    a = (torch.rand(n, n) < p).float()
    a = ((a + a.t()) > 0).float() + torch.eye(n)
    d = a.sum(1).rsqrt()
    return d[:, None] * a * d[None, :]


class NodeTrainer:
    def __init__(self, n_feat, n_cls, hid=32):
        self.encoder = GCNEncoder(n_feat, hid)
        self.head = nn.Sequential(nn.Linear(hid, hid), nn.ReLU(), nn.Linear(hid, n_cls))
        params = list(self.encoder.parameters()) + list(self.head.parameters())
        self.opt = torch.optim.Adam(params, lr=1e-2)

    def step(self, x, a_hat, y, mask):
        self.opt.zero_grad()
        emb = self.encoder(x, a_hat).detach()
        logits = self.head(emb)
        loss = F.cross_entropy(logits[mask], y[mask])
        loss.backward()
        self.opt.step()
        return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    n, f, c = 40, 8, 3
    x, y = torch.randn(n, f), torch.randint(0, c, (n,))
    a_hat = normalized_adjacency(n)
    mask = torch.rand(n) < 0.5
    tr = NodeTrainer(f, c)
    enc0 = [p.detach().clone() for p in tr.encoder.parameters()]
    head0 = [p.detach().clone() for p in tr.head.parameters()]
    for _ in range(5):
        tr.step(x, a_hat, y, mask)
    assert all(p.grad is None for p in tr.encoder.parameters())
    assert all(torch.equal(p, q) for p, q in zip(tr.encoder.parameters(), enc0))
    assert any(not torch.equal(p, q) for p, q in zip(tr.head.parameters(), head0))
    # fixed variant: the same loss without the cut reaches the encoder
    tr.opt.zero_grad()
    F.cross_entropy(tr.head(tr.encoder(x, a_hat))[mask], y[mask]).backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in tr.encoder.parameters())
    print("ok: the GCN encoder is starved by the detach")
