"""
expect: GL001 27
dynamic: confirm
source: kinds check 30, kind 3

Same edge-conv block returning (embeddings, soft kNN graph read with .data),
but this parent throws the embeddings away and labels parts by diffusing raw
coordinates over the graph. The graph is the block's only link to the loss,
and its .data cuts it, so the block's weights never get a gradient.
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


class DiffusionLabeller(nn.Module):
    def __init__(self, d_in, d_hid, n_parts, k=4):
        super().__init__()
        self.block = EdgeConvBlock(d_in, d_hid, k)
        self.cls = nn.Linear(2 * d_in, n_parts)

    def forward(self, pts):
        _, adj = self.block(pts)
        diffused = adj @ (adj @ pts)
        return self.cls(torch.cat([pts, diffused], dim=1))


torch.manual_seed(0)
model = DiffusionLabeller(3, 16, 5)
pts = torch.randn(40, 3)
labels = torch.randint(0, 5, (40,))
loss = F.cross_entropy(model(pts), labels)
loss.backward()

assert model.cls.weight.grad is not None
for name, p in model.block.named_parameters():
    assert p.grad is None, name  # the graph learner is never trained
print("edge-conv block gets no gradient; loss =", loss.item())
