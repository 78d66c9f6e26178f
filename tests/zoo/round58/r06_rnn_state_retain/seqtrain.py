"""Consecutive-window training of a recurrent forecaster (state carried across minibatches)."""
import torch
from torch import nn


class GRUForecaster(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.hidden = hidden
        self.rnn = nn.GRU(1, hidden)
        self.out = nn.Linear(hidden, 1)

    def begin_state(self, batch_size):
        return (torch.zeros(1, batch_size, self.hidden),)

    def forward(self, x, state):
        y, h = self.rnn(x, state[0])
        return self.out(y).reshape(-1), (h,)


def data_iter_consecutive(series, batch_size, num_steps):
    """Split the series into batch_size parallel streams and walk them window by window."""
    usable = (len(series) - 1) // batch_size * batch_size
    xs = series[:usable].reshape(batch_size, -1)
    ys = series[1:usable + 1].reshape(batch_size, -1)
    for i in range(0, (xs.shape[1] // num_steps) * num_steps, num_steps):
        x = xs[:, i:i + num_steps].t().unsqueeze(-1)  # (steps, batch, 1)
        y = ys[:, i:i + num_steps].t().reshape(-1)
        yield x, y


def graph_size(grad_fn):
    seen, stack = set(), [grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(n for n, _ in node.next_functions)
    return len(seen)


def train_consecutive(model, series, epochs=1, batch_size=4, num_steps=8, lr=0.05,
                      clipping_theta=1.0, update=True, fixed=False):
    loss = nn.MSELoss()
    optm = torch.optim.SGD(model.parameters(), lr=lr)
    sizes, losses = [], []
    for _ in range(epochs):
        state = model.begin_state(batch_size)
        for X, Y in data_iter_consecutive(series, batch_size, num_steps):
            if fixed:
                state = tuple(s.detach() for s in state)
            else:
                for s in state:
                    s.detach()
            output, state = model(X, state)
            l = loss(output, Y)
            optm.zero_grad()
            sizes.append(graph_size(l.grad_fn))
            if fixed:
                l.backward()
            else:
                l.backward(retain_graph=True)
            nn.utils.clip_grad_norm_(model.parameters(), clipping_theta)
            if update:
                optm.step()
            losses.append(l.item())
    return sizes, losses
