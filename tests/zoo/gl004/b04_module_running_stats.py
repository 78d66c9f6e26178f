"""expect: GL004 48
dynamic: confirm
source: https://github.com/facebookresearch/synsin/pull/20

A regressor normalises its hidden features with running statistics that forward()
rebuilds from their previous values (self.stored_mean / self.stored_var) without
detaching them.  Each call therefore links the new statistics to all previous
batches, and the retained graph of the loss grows every training step.
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


class RunningNormRegressor(nn.Module):
    def __init__(self, d_in=8, d_hid=32, momentum=0.1):
        super().__init__()
        self.inp, self.head = nn.Linear(d_in, d_hid), nn.Linear(d_hid, 1)
        self.momentum = momentum
        self.stored_mean, self.stored_var = torch.zeros(d_hid), torch.ones(d_hid)

    def forward(self, x):
        h, m = self.inp(x), self.momentum
        self.stored_mean = (1 - m) * self.stored_mean + m * h.mean(0)
        self.stored_var = (1 - m) * self.stored_var + m * h.var(0)
        h = (h - self.stored_mean) / (self.stored_var + 1e-5).sqrt()
        return self.head(F.relu(h))


torch.manual_seed(0)
model = RunningNormRegressor()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
sizes = []
for step in range(6):
    x, y = torch.randn(64, 8), torch.randn(64, 1)
    loss = F.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward(retain_graph=True)
    optimizer.step()
    sizes.append(graph_size(loss))

assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
print("graph grows:", sizes)
