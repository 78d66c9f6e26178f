"""source: https://github.com/boschresearch/Continuous-Recurrent-Units/pull/4

A heteroscedastic regressor trained on a Gaussian NLL plus an auxiliary MSE term
from the same forward (so the first backward retains the graph).  The per-step
losses are logged into lists with `.item()`, as the linked fix does, so the lists
hold plain floats and no graph survives an iteration.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def graph_size(t):
    seen, todo = set(), [t.grad_fn]
    while todo:
        fn = todo.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            todo.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 32), nn.Tanh(), nn.Linear(32, 2))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
nll_history, mse_history, sizes = [], [], []
for epoch in range(6):
    x, y = torch.randn(64, 3), torch.randn(64, 1)
    mean, log_var = model(x).chunk(2, dim=1)
    nll = F.gaussian_nll_loss(mean, y, log_var.exp())
    mse = F.mse_loss(mean, y)
    optimizer.zero_grad()
    nll.backward(retain_graph=True)
    (0.1 * mse).backward()
    optimizer.step()
    nll_history.append(nll.item())
    mse_history.append(mse.item())
    sizes.append(graph_size(nll))

recent = torch.tensor(nll_history[-3:]).mean()  # plateau check on plain numbers
assert all(isinstance(v, float) for v in nll_history + mse_history)
assert len(set(sizes)) == 1 and not recent.requires_grad, sizes
print("graph constant:", sizes)
