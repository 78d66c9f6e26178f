"""
expect: GL004 main.py:36
dynamic: confirm
source: https://github.com/Met4physics/DRIVE-dataset-Pytorch-API/blob/15b4d16cd3b7092919b78dea234e95e5f4526186/main.py

A spiking U-Net (spikingjelly IF neurons, multi-step mode) trained on retinal vessel
segmentation. The neurons keep their membrane potential as module state, and the loop
never called `functional.reset_net(s_model)`, so batch k starts from the potential left
by batch k-1 and its graph reaches back into the previous batch. The first symptom was
"Trying to backward through the graph a second time"; the commit turned the call into
`loss.backward(retain_graph=True)` inside the epoch loop (wrapped in detect_anomaly).
That only hides the missing reset: the graph now grows with every batch, and as soon as
the optimizer has stepped, the next backward walks into weights saved by the previous
batch and fails with "modified by an inplace operation" (the author hit it, spikingjelly #419/#420;
see their tracebacks). The tiny MLP version here (snn.py) asserts the plain loop fails on
batch 2, the retain_graph loop grows its graph and then hits the in-place error, and the
fixed loop (reset the neuron state after every step, plain backward) keeps a constant
graph and lowers the loss.
"""
import torch
import torch.nn.functional as F

from snn import SpikingNet, reset_net

torch.manual_seed(0)
torch.set_num_threads(1)


def train_like_commit(model, batches, sizes):
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for inputs, labels in batches:
        outputs = model(inputs)
        optimizer.zero_grad()
        loss = F.cross_entropy(outputs, labels)
        sizes.append(graph_size(loss))
        loss.backward(retain_graph=True)
        optimizer.step()


def train_fixed(model, batches):
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    sizes, losses = [], []
    for inputs, labels in batches:
        outputs = model(inputs)
        optimizer.zero_grad()
        loss = F.cross_entropy(outputs, labels)
        sizes.append(graph_size(loss))
        loss.backward()
        optimizer.step()
        reset_net(model)
        losses.append(loss.item())
    return sizes, losses


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


def make_batches(n):
    g = torch.Generator().manual_seed(1)
    xs = torch.randn(n, 8, 12, generator=g) * 2
    ys = (xs[:, :, 0] > 0).long()
    return list(zip(xs, ys))


batches = make_batches(6)

# 1) what the plain loop did before the commit: batch 2 cannot backward
model = SpikingNet()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
msg = ""
try:
    for inputs, labels in batches[:2]:
        out = model(inputs)
        opt.zero_grad()
        F.cross_entropy(out, labels).backward()
        opt.step()
except RuntimeError as e:
    msg = str(e)
assert "backward through the graph a second time" in msg, msg

# 2) the committed loop: the graph grows with every batch, then the hidden problem
#    surfaces once the optimizer has changed weights the old graph still needs
torch.manual_seed(0)
model = SpikingNet()
grown = []
msg = ""
try:
    train_like_commit(model, batches, grown)
except RuntimeError as e:
    msg = str(e)
assert "modified by an inplace operation" in msg, msg
assert len(grown) >= 2 and grown[0] < grown[1], grown

# 3) the fix: reset the neuron state every batch, plain backward
torch.manual_seed(0)
model = SpikingNet()
sizes, losses = train_fixed(model, batches * 5)
assert len(set(sizes)) == 1, sizes
assert min(losses[-6:]) < losses[0], losses
print("r03 ok: graph sizes %s with carried state; constant %d after reset" % (grown, sizes[0]))
