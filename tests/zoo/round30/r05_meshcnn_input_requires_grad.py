"""
expect: none
dynamic: dismiss
source: https://github.com/ranahanocka/MeshCNN/issues/127

MeshCNN builds its edge-feature input from numpy and sets requires_grad=True on it;
a user asked why. It looks like the "requires_grad after the history was lost" trap,
but here the tensor is raw input data that never had a history: flagging it only
makes autograd also compute d(loss)/d(input), which is harmless (and usable for
saliency). The classifier parameters still train normally. The asserts show the net's
weights get gradients and the loss drops, and the input gradient exists as a by-product.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
rng = np.random.default_rng(0)


class EdgeClassifier(nn.Module):
    def __init__(self, d_in=5, d=16, n_cls=3):
        super().__init__()
        self.conv = nn.Conv1d(d_in, d, 1)
        self.fc = nn.Linear(d, n_cls)

    def forward(self, edge_feats):
        h = F.relu(self.conv(edge_feats))
        return self.fc(h.max(dim=2).values)


def load_batch():
    feats = rng.standard_normal((8, 5, 40)).astype(np.float32)
    x = torch.from_numpy(feats)
    x.requires_grad_(True)
    y = torch.from_numpy(rng.integers(0, 3, 8))
    return x, y


net = EdgeClassifier()
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
x_fixed, y_fixed = load_batch()
losses = []
for step in range(40):
    loss = F.cross_entropy(net(x_fixed), y_fixed)
    opt.zero_grad()
    loss.backward()
    if step == 0:
        assert all(p.grad.abs().sum() > 0 for p in net.parameters())
        assert x_fixed.grad is not None
    opt.step()
    losses.append(loss.item())
assert losses[-1] < losses[0] * 0.7, (losses[0], losses[-1])
print("ok", losses[0], losses[-1])
