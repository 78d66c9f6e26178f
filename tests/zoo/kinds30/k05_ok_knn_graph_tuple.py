"""
expect: none
dynamic: dismiss
source: kinds check 30, kind 3

A point-cloud part labeller: the edge-conv block returns (propagated point
embeddings, a soft kNN graph whose weights are read with .data from the
embeddings' similarities). The parent smooths its logits over that fixed
graph but trains the block through the embeddings, so the .data is harmless.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EdgeConvBlock(nn.Module):
    def __init__(self, d_in, d_hid, k):
        super().__init__()
        self.k = k
        self.lin = nn.Linear(d_in, d_hid)
        self.mix = nn.Linear(d_hid, d_hid)

    def forward(self, pts):
        h = torch.relu(self.lin(pts))
        sim = h @ h.t() / h.shape[1] ** 0.5
        topv, topi = sim.topk(self.k, dim=1)
        adj = torch.zeros_like(sim).scatter(1, topi, F.softmax(topv, dim=1)).data
        h = torch.relu(self.mix(adj @ h)) + h
        return h, adj


class PartLabeller(nn.Module):
    def __init__(self, d_in, d_hid, n_parts, k=4):
        super().__init__()
        self.block = EdgeConvBlock(d_in, d_hid, k)
        self.cls = nn.Linear(d_hid, n_parts)

    def forward(self, pts):
        h, adj = self.block(pts)
        logits = self.cls(h)
        return 0.5 * logits + 0.5 * adj @ logits  # smooth over the kNN graph


torch.manual_seed(0)
model = PartLabeller(3, 16, 5)
pts = torch.randn(40, 3)
labels = torch.randint(0, 5, (40,))
loss = F.cross_entropy(model(pts), labels)
loss.backward()

for name, p in model.block.named_parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0, name
print("edge-conv block trains through its embeddings; loss =", loss.item())
