"""
expect: GL004 main.py:42, GL005 main.py:43
dynamic: confirm
source: https://github.com/googleinterns/deep-stabilization/issues/10

A video-stabilization network predicts a virtual camera rotation for every step of a
sequence; its LSTM keeps hx/cx on the module across steps (model.py) and is initialised once
per sequence. The trainer backpropagates and steps the optimizer at every step, with
retain_graph=True so that the second step does not complain about a freed graph. Because the
hidden state is never detached, each step's loss graph also contains every earlier step: the
graph grows step after step, and backward walks back into the previous step's LSTM nodes,
whose saved weights were changed in place by optimizer.step(), so it fails with "modified by
an inplace operation". The asserts count the autograd nodes reachable from each loss (they
grow), catch that error, and show that detaching the state each step keeps the graph
constant and trains.
"""
import torch
import torch.nn.functional as F

from model import StabilizationNet


def graph_size(tensor):
    seen, stack = set(), [tensor.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(parent for parent, _ in node.next_functions)
    return len(seen)


def run_epoch(model, optimizer, real_motion, virtual_target, sizes):
    steps, batch = real_motion.shape[0], real_motion.shape[1]
    model.init_hidden(batch)
    for j in range(steps):
        out = model(real_motion[j])
        loss = F.mse_loss(out, virtual_target[j])
        sizes.append(graph_size(loss))
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()


def run_epoch_truncated(model, optimizer, real_motion, virtual_target, sizes):
    steps, batch = real_motion.shape[0], real_motion.shape[1]
    model.init_hidden(batch)
    total = 0.0
    for j in range(steps):
        model.rnn.hx, model.rnn.cx = model.rnn.hx.detach(), model.rnn.cx.detach()
        out = model(real_motion[j])
        loss = F.mse_loss(out, virtual_target[j])
        sizes.append(graph_size(loss))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total


torch.manual_seed(0)
torch.set_num_threads(1)
real_motion = torch.randn(6, 4, 8)
virtual_target = F.normalize(torch.randn(6, 4, 4), dim=-1)

model = StabilizationNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
carried_sizes = []
try:
    run_epoch(model, optimizer, real_motion, virtual_target, carried_sizes)
    error = None
except RuntimeError as err:
    error = str(err)
assert len(carried_sizes) == 2 and carried_sizes[1] > carried_sizes[0], carried_sizes
assert error is not None and "modified by an inplace operation" in error

model.init_hidden(real_motion.shape[1])
chained = [graph_size(F.mse_loss(model(real_motion[j]), virtual_target[j])) for j in range(6)]
assert all(b > a for a, b in zip(chained, chained[1:])), chained

torch.manual_seed(0)
model = StabilizationNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
first_sizes, totals = [], []
for epoch in range(15):
    sizes = []
    totals.append(run_epoch_truncated(model, optimizer, real_motion, virtual_target, sizes))
    first_sizes.append(sizes)
assert all(len(set(s)) == 1 for s in first_sizes)
assert totals[-1] < totals[0]
print("carried state: graph nodes", carried_sizes, "then refused | truncated: nodes", sizes[0], "per step, loss", round(totals[0], 3), "->", round(totals[-1], 3))
