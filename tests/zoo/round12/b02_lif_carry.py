"""
expect: GL004 73
dynamic: confirm
source: https://github.com/fangwei123456/spikingjelly/issues/607

The asker wanted spiking neurons to keep their membrane potential from one batch
to the next instead of resetting it, and hit "Trying to backward through the
graph a second time ... Specify retain_graph=True". This program keeps the LIF
membrane state across batches and silences that error with
backward(retain_graph=True) inside the training loop. The asserts show the graph
behind each batch's loss keeps growing, because the carried membrane potential
links every batch to all earlier ones, whereas resetting it keeps the graph
constant.
"""
import torch
import torch.nn as nn


class SpikeFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, u):
        ctx.save_for_backward(u)
        return (u > 0).float()

    @staticmethod
    def backward(ctx, g):
        (u,) = ctx.saved_tensors
        return g / (1 + (4 * u).pow(2))


class LIFLayer(nn.Module):
    def __init__(self, decay=0.8, thresh=1.0):
        super().__init__()
        self.decay, self.thresh = decay, thresh
        self.v = None

    def forward(self, current):
        v = current if self.v is None else self.decay * self.v + current
        spike = SpikeFn.apply(v - self.thresh)
        self.v = v - spike * self.thresh
        return spike


def graph_size(t):
    seen, todo = set(), [t.grad_fn]
    while todo:
        n = todo.pop()
        if n is None or n in seen:
            continue
        seen.add(n)
        todo.extend(m for m, _ in n.next_functions)
    return len(seen)


def run(reset_between_batches):
    torch.manual_seed(0)
    fc_in, lif, fc_out = nn.Linear(8, 16), LIFLayer(), nn.Linear(16, 2)
    params = list(fc_in.parameters()) + list(fc_out.parameters())
    opt = torch.optim.SGD(params, lr=0.05)
    sizes = []
    for step in range(6):
        x, y = torch.randn(4, 8) * 2, torch.randint(0, 2, (4,))
        if reset_between_batches:
            lif.v = None
        counts = 0
        for t in range(3):
            counts = counts + fc_out(lif(fc_in(x)))
        loss = nn.functional.cross_entropy(counts, y)
        opt.zero_grad()
        if reset_between_batches:
            loss.backward()
        else:
            loss.backward(retain_graph=True)
        opt.step()
        sizes.append(graph_size(loss))
    return sizes


carried = run(reset_between_batches=False)
fresh = run(reset_between_batches=True)
assert all(b > a for a, b in zip(carried, carried[1:])), carried
assert len(set(fresh)) == 1, fresh
assert carried[-1] > 2 * fresh[-1]
print("carried state graph sizes:", carried, "reset:", fresh)
