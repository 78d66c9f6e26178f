"""
expect: none
dynamic: dismiss
source: https://github.com/automl/NASLib/pull/35

The PR notes that assigning into the architecture weights `alpha` by index has to be done on its
`.data` or under `no_grad`. This program rebuilds a DARTS-style search cell whose optimizer discards a
candidate operation on an edge by writing a large negative logit into `alpha` in place, under
`torch.no_grad()`, between training steps and before the next forward is recorded. Nothing has saved
`alpha` at that point, so the edit is safe: the next backward succeeds, the pruned operation's
softmax weight and its alpha gradient are ~0, the other alphas and the operation weights keep
receiving gradients, and the training loss keeps falling.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

OPS = ["linear", "tanh_linear", "zero", "identity"]


class MixedEdge(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.lin = nn.Linear(dim, dim)
        self.tanh_lin = nn.Linear(dim, dim)

    def forward(self, x, weights):
        candidates = [self.lin(x), torch.tanh(self.tanh_lin(x)), torch.zeros_like(x), x]
        return sum(w * c for w, c in zip(weights, candidates))


class SearchCell(nn.Module):
    def __init__(self, dim=6, edges=2):
        super().__init__()
        self.edges = nn.ModuleList(MixedEdge(dim) for _ in range(edges))
        self.alpha = nn.Parameter(1e-3 * torch.randn(edges, len(OPS)))
        self.head = nn.Linear(dim, 1)

    def forward(self, x):
        weights = F.softmax(self.alpha, dim=-1)
        for e, edge in enumerate(self.edges):
            x = edge(x, weights[e])
        return self.head(x)

    def discard_op(self, edge, op_name):
        with torch.no_grad():
            self.alpha[edge, OPS.index(op_name)] = -1e9


cell = SearchCell()
weight_opt = torch.optim.SGD([p for n, p in cell.named_parameters() if n != "alpha"], lr=0.05)
arch_opt = torch.optim.Adam([cell.alpha], lr=3e-3)
x = torch.randn(64, 6)
y = x[:, :1] * 0.5 + torch.tanh(x[:, 1:2])

losses = []
for step in range(60):
    if step == 5:
        cell.discard_op(edge=0, op_name="identity")
    weight_opt.zero_grad()
    arch_opt.zero_grad()
    loss = F.mse_loss(cell(x), y)
    loss.backward()
    weight_opt.step()
    arch_opt.step()
    losses.append(loss.item())

pruned = OPS.index("identity")
assert F.softmax(cell.alpha, -1)[0, pruned] < 1e-6
assert cell.alpha.grad[0, pruned].abs() < 1e-9
assert cell.alpha.grad[0].abs().sum() > 0 and cell.alpha.grad[1].abs().sum() > 0
assert all(p.grad is not None and torch.isfinite(p.grad).all() for p in cell.parameters())
assert losses[-1] < 0.7 * losses[0], (losses[0], losses[-1])
print("ok: in-place alpha edit under no_grad before the forward is safe")
