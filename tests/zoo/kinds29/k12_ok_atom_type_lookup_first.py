"""
expect: none
dynamic: dismiss
source: kinds check 29, kind 6

A molecular model embeds atom types with a max_norm embedding and
predicts masked atom types against the whole table. The lookup (which
renormalises the weight in place) runs first; only afterwards is the
table named and used in the matmul, so nothing saved is edited later.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedAtomModel(nn.Module):
    def __init__(self, n_types, d):
        super().__init__()
        self.emb = nn.Embedding(n_types, d, max_norm=1.0)
        self.mix = nn.Linear(d, d)

    def forward(self, types, adj):
        h = self.emb(types)
        h = torch.relu(self.mix(adj @ h))
        table = self.emb.weight
        return h @ table.t()


torch.manual_seed(0)
n_atoms, n_types = 9, 6
types = torch.randint(0, n_types, (n_atoms,))
adj = (torch.rand(n_atoms, n_atoms) < 0.3).float() + torch.eye(n_atoms)
adj = adj / adj.sum(1, keepdim=True)
model = MaskedAtomModel(n_types, 8)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for _ in range(5):
    opt.zero_grad()
    logits = model(types, adj)
    loss = F.cross_entropy(logits, types)
    loss.backward()
    opt.step()
assert model.emb.weight.grad is not None and model.emb.weight.grad.abs().sum() > 0
print("ok", loss.item())
