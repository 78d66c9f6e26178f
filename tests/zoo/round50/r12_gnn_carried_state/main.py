"""
expect: GL004 main.py:61, GL005 main.py:62
dynamic: confirm
source: https://github.com/LYuhang/GNN_Review/issues/3

A node classifier built on the original linear GNN: every epoch the model iterates its node
states a few times (edge matrices from Xi, biases from Rou) and classifies each node from its
features plus its state. The states are stored on the module and reused as the starting point
of the next epoch without being detached, so each epoch's graph hangs off the previous one. The
author calls loss.backward(retain_graph=True) to get past "backward through the graph a second
time", which keeps every old graph alive: the number of autograd nodes reachable from the loss
grows each epoch and backward walks back into epoch 0. Between the two backward calls Adam's
optimizer.step() has rewritten, in place, the Xi weight that epoch 0's graph saved, so the second
backward fails with "modified by an inplace operation". The asserts count the reachable nodes,
check that epoch 1's graph contains epoch 0's loss node, catch the RuntimeError, and show that
detaching the carried states keeps the graph size constant and lets training run.
"""
import torch
import torch.nn.functional as F

from model import LinearGNN

torch.manual_seed(0)
torch.set_num_threads(1)


def make_graph(n=30, ln=5, num_classes=3):
    labels = torch.randint(0, num_classes, (n,))
    feats = F.one_hot(labels, num_classes).float() @ torch.randn(num_classes, ln) + 0.3 * torch.randn(n, ln)
    src = torch.randint(0, n, (4 * n,))
    dst = torch.randint(0, n, (4 * n,))
    return feats, torch.stack([src, dst]), labels


def reachable(grad_fn):
    seen, stack = set(), [grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return seen


def train(model, labels, epochs, carry_detached, sizes):
    optimizer = torch.optim.Adam(model.parameters(), lr=0.03, weight_decay=1e-4)
    losses, first_loss_fn = [], None
    for epoch in range(epochs):
        if carry_detached:
            model.node_states = model.node_states.detach()
        optimizer.zero_grad()
        loss = F.cross_entropy(model(), labels)
        graph = reachable(loss.grad_fn)
        sizes.append(len(graph))
        if first_loss_fn is None:
            first_loss_fn = loss.grad_fn
        elif not carry_detached:
            assert first_loss_fn not in graph  # the old loss node itself is not an input...
            assert any(fn in graph for fn in reachable(first_loss_fn))  # ...but its subgraph is
        loss.backward(retain_graph=True)
        optimizer.step()
        losses.append(loss.item())
    return losses


feats, edge_index, labels = make_graph()

# as written: states carried with their history across epochs
buggy = LinearGNN(feats, edge_index)
error, buggy_sizes = None, []
try:
    train(buggy, labels, epochs=3, carry_detached=False, sizes=buggy_sizes)
except RuntimeError as exc:
    error = str(exc)
assert error is not None and "modified by an inplace operation" in error
assert len(buggy_sizes) == 2 and buggy_sizes[1] > buggy_sizes[0]  # failed in epoch 1's backward

# same thing without the optimizer step in between: the graph grows every epoch
probe = LinearGNN(feats, edge_index)
grow = []
for _ in range(4):
    loss = F.cross_entropy(probe(), labels)
    grow.append(len(reachable(loss.grad_fn)))
assert grow[1] > grow[0] and grow[2] > grow[1] and grow[3] > grow[2]
assert grow[2] - grow[1] == grow[1] - grow[0]

# intended: carry the values of the states, not their history
torch.manual_seed(1)
fixed = LinearGNN(feats, edge_index)
sizes = []
losses = train(fixed, labels, epochs=150, carry_detached=True, sizes=sizes)
assert len(set(sizes)) == 1
assert losses[-1] < 0.7 * losses[0]
print(f"graph nodes per epoch (carried): {grow}; detached: {sizes[0]}; loss {losses[0]:.3f} -> {losses[-1]:.3f}")
