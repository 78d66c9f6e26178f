"""expect: GL004 46
dynamic: confirm
source: https://github.com/MorvanZhou/PyTorch-Tutorial/issues/57

An RNN regressor learns cos(t) from sin(t) over consecutive windows and hands the
hidden state from one window to the next in a plain local variable.  Without the
`.data`/`.detach()` on that variable, retain_graph=True silences the "backward a
second time" error, but every backward now walks back through all earlier windows.
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
model, lr = SinToCos(), 0.02
h_state, sizes = None, []
for step in range(6):
    t = torch.linspace(step * math.pi, (step + 1) * math.pi, 10)
    x, y = torch.sin(t).view(1, 10, 1), torch.cos(t).view(1, 10, 1)
    pred, h_state = model(x, h_state)  # history of h_state is kept
    loss = F.mse_loss(pred, y)
    model.zero_grad()
    loss.backward(retain_graph=True)
    sizes.append(graph_size(loss))
    for p in model.parameters():  # old-style SGD step through .data
        p.data.add_(p.grad.data, alpha=-lr)

assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
print("graph grows:", sizes)
