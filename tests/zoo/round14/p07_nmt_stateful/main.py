"""
expect: GL004 49
dynamic: confirm
source: https://github.com/Eurus-Holmes/MNMT/issues/7

The issue records the "Trying to backward through the graph a second time" error in a
multimodal NMT training loop and the fix adopted there: replace loss.backward() with
loss.backward(retain_graph=True). This program rebuilds the situation across two files: the
translator in model.py carries its encoder context from one batch to the next, and the
training loop here calls backward(retain_graph=True) every batch. The asserts show that the
graph reachable from each batch's loss gets larger every step (all earlier batches stay
alive, so memory and backward time grow), while cutting the carried context each batch keeps
the graph at a constant size without retain_graph.
"""
import torch
from model import StatefulTranslator, seq_loss

torch.manual_seed(0)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


batches = [(torch.randint(0, 50, (4, 7)), torch.randint(0, 10, (4,))) for _ in range(6)]


def train(cut_each_batch):
    model = StatefulTranslator()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    model.reset(4)
    sizes = []
    for src, tgt in batches:
        if cut_each_batch:
            model.cut_context()
        loss = seq_loss(model(src), tgt)
        sizes.append(graph_size(loss))
        opt.zero_grad()
        if cut_each_batch:
            loss.backward()
        else:
            loss.backward(retain_graph=True)
        opt.step()
    return sizes


grown = train(cut_each_batch=False)
steady = train(cut_each_batch=True)
assert all(b > a for a, b in zip(grown, grown[1:])), grown
assert grown[-1] >= 2 * grown[0], grown
assert len(set(steady)) == 1, steady
print("ok: retained graph grows per batch", grown, "vs", steady)
