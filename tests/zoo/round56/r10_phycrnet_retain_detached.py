"""
expect: none
dynamic: dismiss
source: https://github.com/isds-neu/PhyCRNet/blob/34cd41f57699bb75eb58014f1887551992dc1ca8/Codes/PhyCRNet_burgers.py

PhyCRNet learns the solution of a PDE with a convolutional-recurrent network
trained only on a finite-difference physics residual.  The long time horizon is
cut into time batches; inside each epoch the training loop runs the recurrence
for one batch, calls `loss.backward(retain_graph=True)`, and hands the last
ConvLSTM state and the second-to-last output to the next batch.  A
`retain_graph=True` inside a loop that carries recurrent state is usually the
sign of a graph growing across iterations - but here the carried values are
rebuilt with `h.detach(), c.detach()` and `prev_output[-2:-1].detach()` before
they are reused, so each batch's graph is self-contained and retain_graph only
keeps one batch's buffers alive until the next assignment.  The gradients from
all time batches are summed and applied by one optimizer.step() per epoch.  The
asserts show the graph behind every loss has the same size in every batch and
epoch, the accumulated gradient is identical to the one obtained without
retain_graph, and the physics residual falls during training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

NX, DT, DX, NU = 32, 0.01, 1.0 / 32, 0.05
LAPLACE = torch.tensor([[[1.0, -2.0, 1.0]]]) / DX ** 2


class ConvLSTMCell(nn.Module):
    def __init__(self, cin, ch):
        super().__init__()
        self.gates = nn.Conv1d(cin + ch, 4 * ch, 3, padding=1, padding_mode="circular")

    def forward(self, x, h, c):
        i, f, g, o = self.gates(torch.cat([x, h], 1)).chunk(4, 1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        return h, c


class PhyCRNet(nn.Module):
    def __init__(self, ch=8, steps=6):
        super().__init__()
        self.cell = ConvLSTMCell(1, ch)
        self.out = nn.Conv1d(ch, 1, 3, padding=1, padding_mode="circular")
        self.steps = steps

    def forward(self, state, u):
        h, c = state
        outputs, second_last = [], None
        for step in range(self.steps):
            h, c = self.cell(u, h, c)
            u = u + DT * self.out(h)  # residual connection
            if step == self.steps - 2:
                second_last = (h, c)
            outputs.append(u)
        return outputs, second_last


def physics_loss(u):  # u: (T, 1, NX)
    lap = F.conv1d(F.pad(u[1:-1], (1, 1), mode="circular"), LAPLACE)
    u_t = (u[2:] - u[:-2]) / (2 * DT)
    return (u_t - NU * lap).pow(2).mean()


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(f for f, _ in fn.next_functions)
    return len(seen)


x = torch.linspace(0, 1, NX + 1)[:-1]
u_init = torch.sin(2 * torch.pi * x).view(1, 1, NX)
h0, c0 = torch.randn(1, 8, NX), torch.randn(1, 8, NX)


def train_epoch(model, optimizer, retain, n_time_batch=3, sizes=None):
    optimizer.zero_grad()
    batch_loss = 0.0
    prev_output, state_detached = None, None
    for tb in range(n_time_batch):
        if tb == 0:
            hidden, u0 = (h0, c0), u_init
        else:
            hidden = state_detached
            u0 = prev_output[-2:-1].detach()  # second last output
        outputs, second_last = model(hidden, u0)
        output = torch.cat([u0] + outputs, 0)
        loss = physics_loss(output)
        loss.backward(retain_graph=retain)
        batch_loss += loss.item()
        if sizes is not None:
            sizes.append(graph_size(loss))
        prev_output = output
        state_detached = tuple(s.detach() for s in second_last)
    return batch_loss


# same accumulated gradient with and without retain_graph
grads = []
for retain in (True, False):
    torch.manual_seed(0)
    m = PhyCRNet()
    train_epoch(m, torch.optim.Adam(m.parameters()), retain)
    grads.append([p.grad.clone() for p in m.parameters()])
assert all(torch.allclose(a, b) for a, b in zip(*grads))

torch.manual_seed(0)
model = PhyCRNet()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
sizes, history = [], []
for epoch in range(60):
    history.append(train_epoch(model, optimizer, retain=True, sizes=sizes))
    optimizer.step()

assert len(set(sizes)) == 1, "graph per time batch does not grow"
assert history[-1] < 0.2 * history[0], (history[0], history[-1])
print(f"graph nodes per time batch: {sizes[0]} (constant over {len(sizes)} batches); "
      f"physics loss {history[0]:.3f} -> {history[-1]:.4f}")
