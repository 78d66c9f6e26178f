"""
expect: GL004 66
dynamic: confirm
source: https://shijianchuo.net/question/50899548.html

The question ("PyTorch 0.4 LSTM: why does each epoch get slower?") trains a toy recurrent model
to predict a 3-vector rotated by a fixed matrix R at every time step; the time per ten epochs
grows steadily on both GPU and CPU. The model keeps its recurrent state on `self.hidden` from one
epoch to the next and backward is called with retain_graph=True, so each epoch's graph is chained
to all previous ones and every backward walks the whole history. This program rebuilds the toy
problem with a small diagonal recurrent cell (its recurrent weights are recomputed each call, so
the stale graph holds no optimizer-updated tensors; with nn.LSTM modern PyTorch raises an
in-place error instead). The asserts count the autograd nodes reached by each backward: they
grow every epoch, and stay constant when the state is detached between epochs.
"""
import math
import torch
import torch.nn as nn

torch.manual_seed(0)
SEQ, DIM, HID = 6, 3, 16


def rotation(theta):
    c, s = math.cos(theta), math.sin(theta)
    return torch.tensor([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


class DiagonalRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(DIM, HID)
        self.decay_logit = nn.Parameter(torch.zeros(HID))
        self.out = nn.Linear(HID, DIM)
        self.hidden = torch.zeros(1, HID)

    def forward(self, seq):
        decay = torch.sigmoid(self.decay_logit)
        outputs = []
        for t in range(seq.shape[0]):
            self.hidden = decay * self.hidden + self.inp(seq[t:t + 1])
            outputs.append(self.out(torch.tanh(self.hidden)))
        return torch.cat(outputs)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


def train(model, data, target, epochs, detach_state):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    sizes = []
    for epoch in range(epochs):
        if detach_state:
            model.hidden = model.hidden.detach()
        pred = model(data)
        loss = ((pred - target) ** 2).mean()
        opt.zero_grad()
        loss.backward(retain_graph=True)
        opt.step()
        sizes.append(graph_size(loss))
    return sizes


R = rotation(0.3)
v = torch.randn(1, DIM)
target = torch.cat([v @ torch.linalg.matrix_power(R, k).T for k in range(SEQ)])
data = torch.cat([v, torch.zeros(SEQ - 1, DIM)])

sizes = train(DiagonalRNN(), data, target, epochs=8, detach_state=False)
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
sizes_fixed = train(DiagonalRNN(), data, target, epochs=8, detach_state=True)
assert len(set(sizes_fixed)) == 1, sizes_fixed
print("p09 ok: graph per epoch", sizes, "vs", sizes_fixed)
