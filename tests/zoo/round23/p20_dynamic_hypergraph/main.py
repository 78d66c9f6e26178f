"""
expect: none
dynamic: dismiss
source: https://github.com/iMoonLab/DeepHypergraph/issues/19

DHG's `Hypergraph.from_feature_kNN()` builds hyperedges from vertex features with NumPy; the
issue reported it failing on features that require grad, and the maintainers added a
`.detach()` before the NumPy conversion. In a dynamic-hypergraph model the structure is
rebuilt every epoch from the learned embeddings, so the detach/NumPy round trip looks like a
cut, but the structure is a discrete choice: the embeddings still flow into the HGNN
convolution, which is differentiable. The asserts show the incidence matrix carries no
history, every parameter (including the embedding layer that produced the k-NN features)
gets a gradient, and the node-classification loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from hypergraph import Hypergraph

torch.set_num_threads(1)
torch.manual_seed(0)


class HGNNConv(nn.Module):
    def __init__(self, in_ch, out_ch):
        super().__init__()
        self.theta = nn.Linear(in_ch, out_ch)

    def forward(self, X, hg):
        return hg.smoothing_with_HGNN(self.theta(X))


class DynamicHGNN(nn.Module):
    def __init__(self, in_ch=8, hid=16, n_cls=3, k=4):
        super().__init__()
        self.k = k
        self.embed = nn.Linear(in_ch, hid)
        self.conv1, self.conv2 = HGNNConv(hid, hid), HGNNConv(hid, n_cls)

    def forward(self, X):
        emb = torch.relu(self.embed(X))
        hg = Hypergraph.from_feature_kNN(emb, self.k)
        return self.conv2(torch.relu(self.conv1(emb, hg)), hg), hg


centers = torch.randn(3, 8) * 2
labels = torch.randint(0, 3, (60,))
X = centers[labels] + torch.randn(60, 8)
train_mask = torch.rand(60) < 0.5

model = DynamicHGNN()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
hist = []
for epoch in range(80):
    out, hg = model(X)
    loss = F.cross_entropy(out[train_mask], labels[train_mask])
    opt.zero_grad()
    loss.backward()
    if epoch == 0:
        assert not hg.H.requires_grad and hg.H.grad_fn is None
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
    opt.step()
    hist.append(loss.item())
assert hist[-1] < 0.5 * hist[0]
acc = (model(X)[0].argmax(1)[~train_mask] == labels[~train_mask]).float().mean().item()
assert acc > 0.7
print("p20 ok: detached k-NN structure, differentiable features", hist[0], hist[-1], acc)
