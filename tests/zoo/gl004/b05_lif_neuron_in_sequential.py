"""expect: GL004 47
dynamic: confirm
source: https://github.com/jeshraghian/snntorch/issues/250

A spiking classifier built as nn.Sequential with a leaky integrate-and-fire layer
that keeps its membrane potential as an attribute between calls (init_hidden
style).  Nothing resets or detaches `self.mem` between batches, so with
retain_graph=True each batch's graph also holds every earlier batch.
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


class LeakyNeuron(nn.Module):
    def __init__(self, beta=0.9, threshold=1.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold
        self.mem = torch.zeros(1)

    def forward(self, current):
        self.mem = self.beta * self.mem + current
        spk = torch.sigmoid(5.0 * (self.mem - self.threshold))  # surrogate spike
        self.mem = self.mem - spk * self.threshold  # soft reset
        return spk


torch.manual_seed(0)
net = nn.Sequential(nn.Linear(20, 32), LeakyNeuron(), nn.Linear(32, 4))
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
sizes = []
for batch in range(5):
    x, y = torch.rand(16, 20), torch.randint(0, 4, (16,))
    logits = sum(net(x) for _ in range(4))  # 4 simulation time steps
    loss = F.cross_entropy(logits, y)
    optimizer.zero_grad()
    loss.backward(retain_graph=True)
    optimizer.step()
    sizes.append(graph_size(loss))

assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
print("graph grows:", sizes)
