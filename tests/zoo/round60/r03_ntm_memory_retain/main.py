"""
expect: GL004 main.py:69
dynamic: confirm
source: https://github.com/rs9000/Neural-Turing-machine/blob/8c7aea1be56a301a7383d2fa66111cd8330e2f3c/train.py

This NTM copy-task trainer keeps the machine's memory, read vector and head weightings as
attributes of the model and only initialises them once, in __init__. Every training sample
therefore starts from the memory left by the previous sample, and that memory still hangs on the
previous sample's graph. The second backward would fail with "Trying to backward through the
graph a second time", so the loop calls loss.backward(retain_graph=True). That keeps every earlier
sample's graph alive and chained to the new one: the graph grows with each sample, and because the
optimizer has meanwhile updated the head weights that the old graph saved, the next backward dies
with "modified by an inplace operation" (the PyTorch optimizers of that time updated parameters
through .data, which autograd does not track, so the run could go on silently with stale, ever
longer backward passes). The later "Fix retain_graph" commit in
that repository resets the memory state per sample. The asserts show the autograd graph of the
second sample is much larger than the first, that without retain_graph the plain error appears,
that with it the loop still breaks on the in-place check, and that resetting the state per sample
keeps the graph size constant and learns the copy task.
"""
import torch
import torch.nn.functional as F

from ntm import NTM

torch.manual_seed(0)
torch.set_num_threads(1)

SEQ, WIDTH = 2, 4


def copy_sample():
    seq = torch.bernoulli(torch.full((SEQ, WIDTH), 0.5))
    inp = torch.zeros(SEQ + 1, WIDTH + 1)
    inp[:SEQ, :WIDTH] = seq
    inp[SEQ, WIDTH] = 1.0
    target = torch.zeros(SEQ, WIDTH + 1)
    target[:, :WIDTH] = seq
    return inp, target


def graph_size(fn):
    seen, stack = set(), [fn]
    while stack:
        f = stack.pop()
        if f is None or f in seen:
            continue
        seen.add(f)
        stack.extend(nxt for nxt, _ in f.next_functions)
    return len(seen)


def train(samples, reset_each_sample, retain=True):
    torch.manual_seed(1)
    model = NTM(WIDTH + 1)
    optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-2)
    sizes, losses = [], []
    for e in range(samples):
        X, Y = copy_sample()
        if reset_each_sample:
            model.initialize_state()
        optimizer.zero_grad()
        for t in range(SEQ + 1):
            model(X[t])
        y_pred = torch.stack([model() for _ in range(SEQ)])
        loss = F.binary_cross_entropy(y_pred, Y)
        sizes.append(graph_size(loss.grad_fn))
        if retain:
            loss.backward(retain_graph=True)
        else:
            loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return sizes, losses


# bug: memory carried across samples, retain_graph=True keeps the chain alive
sizes = []
try:
    sizes, _ = train(5, reset_each_sample=False)
    raise AssertionError("expected the carried graph to break")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err)

# same loop without retain_graph shows what retain_graph was papering over
try:
    train(3, reset_each_sample=False, retain=False)
    raise AssertionError("expected a second-backward error")
except RuntimeError as err:
    assert "backward through the graph a second time" in str(err)

# graph growth: measure sample 1 and 2 sizes without stepping into the broken backward
torch.manual_seed(1)
model = NTM(WIDTH + 1)
grown = []
for _ in range(3):
    X, Y = copy_sample()
    for t in range(SEQ + 1):
        model(X[t])
    loss = F.binary_cross_entropy(torch.stack([model() for _ in range(SEQ)]), Y)
    grown.append(graph_size(loss.grad_fn))
assert grown[1] > 1.5 * grown[0] and grown[2] > grown[1], grown

# fix: reset the machine state at the start of every sample
sizes, losses = train(800, reset_each_sample=True)
assert len(set(sizes)) == 1, set(sizes)
first, last = sum(losses[:50]) / 50, sum(losses[-50:]) / 50
assert last < 0.85 * first and last < 0.52, (first, last)
print("ok: carried NTM memory grows the graph", grown, "; reset per sample trains", round(first, 3), "->", round(last, 3))
