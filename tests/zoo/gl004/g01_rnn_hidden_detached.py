"""source: https://github.com/MorvanZhou/PyTorch-Tutorial/issues/57

The sin-to-cos RNN regressor again, with the tutorial's fix: the hidden state handed
to the next window is detached, so each window starts a fresh graph.  The leftover
retain_graph=True only keeps one window's graph alive until the next iteration
rebinds `loss`; nothing accumulates and the graph size stays constant.
"""
import math
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


class SinToCos(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.rnn = nn.RNN(1, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x, h):
        y, h = self.rnn(x, h)
        return self.out(y), h


torch.manual_seed(0)
model = SinToCos()
optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
h_state = torch.zeros(1, 1, 16)
sizes = []
for step in range(6):
    t = torch.linspace(step * math.pi, (step + 1) * math.pi, 10)
    x, y = torch.sin(t).view(1, 10, 1), torch.cos(t).view(1, 10, 1)
    pred, h_state = model(x, h_state)
    h_state = h_state.detach()  # cut the history before the next window
    loss = F.mse_loss(pred, y)
    optimizer.zero_grad()
    loss.backward(retain_graph=True)
    optimizer.step()
    sizes.append(graph_size(loss))

assert len(set(sizes)) == 1, sizes
print("graph constant:", sizes)
