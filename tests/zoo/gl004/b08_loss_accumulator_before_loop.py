"""expect: GL004 38
dynamic: confirm
source: https://github.com/davda54/sam/issues/10

A linear regressor is trained by adding each batch loss into one loss tensor that
is created once, before the loop, and backpropagating that accumulator every
iteration.  The accumulator carries all previous batch terms, so retain_graph=True
is required and the graph (and the gradient, which double-counts old batches)
grows every iteration.
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
X = torch.randn(96, 5)
Y = X @ torch.tensor([[1.0], [-2.0], [0.5], [0.0], [3.0]]) + 0.1 * torch.randn(96, 1)
model = nn.Linear(5, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

total_loss = torch.zeros(())  # built once, before the loop
sizes = []
for i in range(6):
    xb, yb = X[i * 16:(i + 1) * 16], Y[i * 16:(i + 1) * 16]
    total_loss += F.mse_loss(model(xb), yb)
    optimizer.zero_grad()
    total_loss.backward(retain_graph=True)
    optimizer.step()
    sizes.append(graph_size(total_loss))

assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
print("graph grows:", sizes)
