"""
expect: GL004 50
dynamic: confirm
source: https://github.com/merlinquantum/merlin/pull/219

merlinquantum/merlin PR #219 ("Backprop guard implemented for memristor"): the memristive phase
shifter keeps a history of past forward passes, and that history stayed attached to the autograd
graph, so each backward reached back through every earlier pass; the PR adds num_backprop_steps to
detach history older than a few passes. This program rebuilds a photonic classifier whose
memristive layer (memristor.py) carries its differentiable history across training steps; the
training loop has to call loss.backward(retain_graph=True) because the history holds the previous
step's graph. It counts the autograd nodes reachable from each step's loss and asserts they grow
every step, while with the history detached (num_backprop_steps=0) the graph size is constant,
plain backward() works, and the classifier still learns.
"""
import torch
import torch.nn.functional as F

from memristor import PhotonicClassifier


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


def make_data(n=64):
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(n, 4, generator=gen)
    return x, (x[:, 0] * x[:, 1] > 0).long()


def train(num_backprop_steps, steps=25):
    torch.manual_seed(0)
    model = PhotonicClassifier(4, num_backprop_steps=num_backprop_steps)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    x, y = make_data()
    sizes, losses = [], []
    for _ in range(steps):
        loss = F.cross_entropy(model(x), y)
        sizes.append(graph_size(loss))
        opt.zero_grad()
        if num_backprop_steps is None:
            loss.backward(retain_graph=True)
        else:
            loss.backward()
        opt.step()
        losses.append(loss.item())
    return sizes, losses


sizes, _ = train(num_backprop_steps=None)
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes[:5]
assert sizes[-1] > 5 * sizes[0], (sizes[0], sizes[-1])

sizes_fix, losses_fix = train(num_backprop_steps=0)
assert len(set(sizes_fix)) == 1, sizes_fix[:5]
assert losses_fix[-1] < losses_fix[0], (losses_fix[0], losses_fix[-1])
print("p10 ok: differentiable memristor history + retain_graph=True grows the graph every step")
