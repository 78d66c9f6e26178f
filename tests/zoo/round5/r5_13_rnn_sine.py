"""expect: GL004 54
dynamic: confirm
source: https://github.com/MorvanZhou/PyTorch-Tutorial/issues/57

RNN regressor mapping sin(t) to cos(t) over a long signal split into windows, with the
gradients accumulated over the signal and applied once per sequence. The hidden
state is carried from window to window without `h_state.detach()` (the tutorial's
`h_state = h_state.data` line was removed), and the resulting "backward through the graph a
second time" error was silenced with retain_graph=True: every backward now re-walks all
previous windows, and the graph grows with each window.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class SineToCosine(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.rnn = nn.RNN(1, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x, h_state):
        r_out, h_state = self.rnn(x, h_state)
        return self.out(r_out), h_state


torch.manual_seed(0)
model = SineToCosine()
opt = torch.optim.Adam(model.parameters(), lr=0.02)
sizes = []

for sequence in range(2):
    h_state = None
    opt.zero_grad()
    for window in range(6):
        t = torch.linspace(window * math.pi, (window + 1) * math.pi, 10)
        x, y = torch.sin(t).view(1, -1, 1), torch.cos(t).view(1, -1, 1)
        prediction, h_state = model(x, h_state)
        loss = F.mse_loss(prediction, y)
        loss.backward(retain_graph=True)
        sizes.append(graph_size(loss))
    opt.step()

first_seq = sizes[:6]
assert all(b > a for a, b in zip(first_seq, first_seq[1:])), first_seq
print("ok: graph grows per window:", first_seq)
