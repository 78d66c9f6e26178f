"""
expect: GL005 51
dynamic: confirm
source: kind D

A jumping-knowledge GNN returns its per-layer node embeddings from
``layer_outputs`` as one stacked tensor (``torch.stack(...)``) plus logits.
The training loop computes a per-layer smoothness penalty with ``** 2``,
which saves ``feats[i]`` for backward, and then rescales that layer with
``feats[i] = feats[i] * 2``.  Because ``feats`` is a tensor rather than a list,
the assignment is an in-place write into the stacked tensor, so backward
raises "modified by an inplace operation".
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class JKNet(nn.Module):
    def __init__(self, dim=8, layers=3, n_cls=3):
        super().__init__()
        self.convs = nn.ModuleList(nn.Linear(dim, dim) for _ in range(layers))
        self.cls = nn.Linear(dim, n_cls)

    def layer_outputs(self, x, adj):
        outs = []
        for conv in self.convs:
            x = torch.relu(conv(adj @ x))
            outs.append(x)
        return torch.stack(outs), self.cls(x)


def normalized_adj(n, p=0.3):
    a = (torch.rand(n, n) < p).float()
    a = ((a + a.t()) > 0).float() + torch.eye(n)
    d = a.sum(1).rsqrt()
    return d[:, None] * a * d[None, :]


def main():
    torch.manual_seed(11)
    n = 15
    adj = normalized_adj(n)
    x = torch.randn(n, 8)
    y = torch.randint(0, 3, (n,))
    model = JKNet()
    feats, logits = model.layer_outputs(x, adj)
    smooth = 0.0
    for i in range(feats.shape[0]):
        smooth = smooth + (feats[i] ** 2).mean()
        feats[i] = feats[i] * 2
    readout = feats.max(0).values.sum()
    loss = F.cross_entropy(logits, y) + 0.1 * smooth + 1e-3 * readout
    try:
        loss.backward()
    except RuntimeError as e:
        assert "modified by an inplace operation" in str(e), e
        print("caught expected in-place error")
    else:
        raise AssertionError("backward should have failed")


if __name__ == "__main__":
    main()
