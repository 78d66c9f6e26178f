"""expect: GL003 29
dynamic: confirm
source: kinds8 (kind C)

The loss is computed under no_grad and then has requires_grad switched on just
before backward; it is a bare leaf, so the GCN weights never get a gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TwoLayerGCN(nn.Module):
    def __init__(self, in_dim=6, hid=8, n_cls=3):
        super().__init__()
        self.w1 = nn.Linear(in_dim, hid)
        self.w2 = nn.Linear(hid, n_cls)

    def forward(self, feats, adj_norm):
        h = torch.relu(adj_norm @ self.w1(feats))
        return adj_norm @ self.w2(h)


def train_step(gcn, opt, feats, adj_norm, labels):
    with torch.no_grad():
        logits = gcn(feats, adj_norm)
        loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.requires_grad = True
    loss.backward()
    opt.step()
    return loss


def main():
    torch.manual_seed(0)
    n = 7
    adj = (torch.rand(n, n) > 0.6).float() + torch.eye(n)
    deg = adj.sum(1)
    adj_norm = adj / torch.sqrt(deg[:, None] * deg[None, :])
    feats = torch.randn(n, 6)
    labels = torch.randint(0, 3, (n,))

    gcn = TwoLayerGCN()
    opt = torch.optim.Adam(gcn.parameters(), lr=0.01)
    loss = train_step(gcn, opt, feats, adj_norm, labels)
    assert loss.grad is not None
    for w in gcn.parameters():
        assert w.grad is None

    # control: the same network trained with grad on does get gradients
    ctrl = TwoLayerGCN()
    F.cross_entropy(ctrl(feats, adj_norm), labels).backward()
    for w in ctrl.parameters():
        assert w.grad is not None
    print("OK")


if __name__ == "__main__":
    main()
