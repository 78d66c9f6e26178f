"""
expect: GL002 guard.py:27
dynamic: confirm
source: https://github.com/mims-harvard/GNNGuard/blob/HEAD/defense/gcn.py

A two-layer GCN with a GNNGuard-style defence: before each propagation the edge weights are
recomputed from the cosine similarity of the current node features, and a small learnable gate
(drop_learn, a Linear(2, 1) registered on the model and held by the Adam optimizer) scores
every edge. In guard.py the gate's output is pushed through .data.numpy() into a NumPy matrix,
combined with the similarities there, and finally rebuilt as a fresh tensor with
torch.tensor(...). The rebuilt edge weights carry no history, so the loss reaches gc1/gc2 but
never drop_learn: its .grad stays None and its weights never change, while the defence is
believed to be learning which edges to drop. (The source also binarises the gate with two
Threshold modules; the reproduction keeps the sigmoid score.) The asserts train the model and
show the gate untouched, then run the same weighting kept in torch and show the gate receives a
non-zero gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from guard import att_coef, att_coef_torch

torch.manual_seed(0)
torch.set_num_threads(1)


class GuardedGCN(nn.Module):
    def __init__(self, nfeat, nhid, nclass, weighting):
        super().__init__()
        self.gc1 = nn.Linear(nfeat, nhid)
        self.gc2 = nn.Linear(nhid, nclass)
        self.drop_learn = nn.Linear(2, 1)
        self.weighting = weighting

    @staticmethod
    def propagate(h, edge_index, edge_weight):
        row, col = edge_index
        return torch.zeros_like(h).index_add(0, col, h[row] * edge_weight[:, None])

    def forward(self, x, edge_index):
        w1 = self.weighting(self, x, edge_index)
        h = F.relu(self.propagate(self.gc1(x), edge_index, w1))
        w2 = self.weighting(self, h, edge_index)
        return F.log_softmax(self.propagate(self.gc2(h), edge_index, w2), dim=1)


n = 40
x = torch.randn(n, 12)
rand_edges = torch.randint(0, n, (2, 160))
loops = torch.arange(n).repeat(2, 1)
edge_index = torch.cat([rand_edges, loops], dim=1)
labels = torch.randint(0, 3, (n,))

model = GuardedGCN(12, 16, 3, att_coef)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
gate_before = model.drop_learn.weight.detach().clone()
gc1_before = model.gc1.weight.detach().clone()
losses = []
for _ in range(40):
    opt.zero_grad()
    loss = F.nll_loss(model(x, edge_index), labels)
    loss.backward()
    opt.step()
    losses.append(loss.item())

assert model.drop_learn.weight.grad is None and model.drop_learn.bias.grad is None
assert torch.equal(model.drop_learn.weight, gate_before)
assert not torch.equal(model.gc1.weight, gc1_before) and losses[-1] < losses[0]

fixed = GuardedGCN(12, 16, 3, att_coef_torch)
F.nll_loss(fixed(x, edge_index), labels).backward()
assert fixed.drop_learn.weight.grad is not None and fixed.drop_learn.weight.grad.abs().sum() > 0
print(f"GCN loss {losses[0]:.3f} -> {losses[-1]:.3f}; drop gate never received a gradient")
