"""
expect: GL004 main.py:59
expect: GL005 main.py:61
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/2198

The "memory leak in LSTM and RNN" report turned out to be the recurrent state: the hidden state
returned by the RNN was fed into the next step without being detached, so it held the backward
graph of the whole sequence, and the advice was to detach it periodically (truncated BPTT). In the
usual form of this mistake the state lives on the module and backward needs retain_graph=True to
get past the second chunk; with current PyTorch the optimizer step between chunks then makes the
next backward fail with an in-place error. model.py keeps the hidden state on the module, main.py
trains it chunk by chunk over a long synthetic series; the program asserts that error, that the
graph reachable from each chunk's loss grows chunk after chunk when gradients are only accumulated,
and that detaching the state between chunks keeps it constant and trains cleanly.
"""
import torch
import torch.nn.functional as F

from model import StatefulForecaster

torch.manual_seed(0)
torch.set_num_threads(1)


def n_nodes(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        f = stack.pop()
        if f is None or f in seen:
            continue
        seen.add(f)
        stack.extend(g for g, _ in f.next_functions)
    return len(seen)


def make_series(batch=4, length=241):
    t = torch.linspace(0, 24, length)
    base = torch.stack([torch.sin(t), torch.cos(0.5 * t), torch.sin(0.25 * t)], dim=-1)
    return base.expand(batch, -1, -1) + 0.05 * torch.randn(batch, length, 3)


def train(detach_state, step_every_chunk=True, chunk=20):
    torch.manual_seed(1)
    model = StatefulForecaster()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    series = make_series()
    model.reset_state(series.shape[0])
    sizes = []
    for start in range(0, series.shape[1] - 1 - chunk + 1, chunk):
        x = series[:, start:start + chunk]
        y = series[:, start + 1:start + chunk + 1]
        if detach_state:
            model.hidden = tuple(h.detach() for h in model.hidden)
        loss = F.mse_loss(model(x), y)
        sizes.append(n_nodes(loss))
        if step_every_chunk:
            opt.zero_grad()
        loss.backward(retain_graph=True)
        if step_every_chunk:
            opt.step()
    if not step_every_chunk:
        opt.step()
    return sizes


try:
    train(detach_state=False)
    err = None
except RuntimeError as e:
    err = str(e)
print("reported:", (err or "")[:70])
assert err is not None and "modified by an inplace operation" in err

sizes = train(detach_state=False, step_every_chunk=False)
print("accumulating only: graph nodes per chunk", sizes)
assert all(b > a for a, b in zip(sizes, sizes[1:])), "each chunk's graph includes all earlier chunks"

fixed = train(detach_state=True)
print("fixed: graph nodes per chunk", fixed)
assert len(set(fixed)) == 1
print("OK")
