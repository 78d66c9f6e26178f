"""
expect: GL004 main.py:59
dynamic: confirm
source: https://github.com/memgraph/mage/pull/121

Memgraph's TGN module (PR review of memory.py) added detach_tensor_grads() for
the per-node memory, citing "backward through the graph a second time": memories
written into a dict keep the autograd history of every earlier batch. The usual
workaround, backward(retain_graph=True) in the batch loop, hides the error while
each new memory hangs on all previous graphs. This trainer resets memory per epoch
and accumulates gradients but never detaches between batches; the asserts show the
graph behind each batch output grows every batch, and stays flat when detached.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from memory import Memory

torch.manual_seed(0)
torch.set_num_threads(1)

NUM_NODES, MEM, EDGE = 6, 8, 4


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class LinkPredictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2 * MEM, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, h_src, h_dst):
        return self.mlp(torch.cat([h_src, h_dst], 1)).squeeze(1)


def train(detach_each_batch, epochs=2, batches=6):
    memory, pred = Memory(NUM_NODES, MEM, EDGE), LinkPredictor()
    opt = torch.optim.Adam(list(memory.parameters()) + list(pred.parameters()), lr=1e-3)
    sizes = []
    for _ in range(epochs):
        memory.reset()
        opt.zero_grad()
        sizes = []
        for _ in range(batches):     # gradients accumulated over the epoch
            src, dst = torch.tensor([0, 1, 2]), torch.tensor([3, 4, 5])
            h_src, h_dst = memory.update(src, dst, torch.randn(3, EDGE))
            loss = F.binary_cross_entropy_with_logits(pred(h_src, h_dst), torch.ones(3))
            if not detach_each_batch:
                loss.backward(retain_graph=True)
            else:
                loss.backward()
                memory.detach_tensor_grads()
            sizes.append(graph_size(h_src))
        opt.step()
    return sizes


grow = train(detach_each_batch=False)
flat = train(detach_each_batch=True)
assert all(b > a for a, b in zip(grow, grow[1:])), grow
assert len(set(flat)) == 1, flat
assert grow[-1] > 4 * flat[-1]
print("ok: memory graph grows", grow, "vs", flat)
