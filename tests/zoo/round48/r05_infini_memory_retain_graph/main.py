"""expect: GL004 main.py:45
dynamic: confirm
source: https://github.com/Beomi/InfiniTransformer/commit/794de70d3ee28576e41b24845e0ca78bc0945d30

Segment-wise training of an Infini-attention language model: a long sequence is split into segments, the
compressive memory and its normalisation term returned for one segment are fed to the next, and
backward() is called after every segment. Because the memory is returned with its history, the second
segment's backward runs into the already freed first-segment graph, and the commit answered that error
with backward(retain_graph=True). Now every segment's loss reaches back through the graphs of all earlier
segments: the graph kept alive grows with each segment, each backward re-traverses the old nodes and adds
their gradients again. The asserts count the autograd nodes reachable from each segment's loss (strictly
growing) and compare with the later fix, which detaches memory and norm_term: a constant graph per segment.
"""
import torch

from infini_attention import InfiniLM

torch.manual_seed(0)
torch.set_num_threads(1)


def reachable_nodes(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


ids = torch.randint(0, 40, (2, 48))
segments = torch.split(ids, 8, dim=1)
model = InfiniLM()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)


def train_long_sequence(segments):
    sizes = []
    memory, norm_term = None, None
    for seg in segments:
        loss, memory, norm_term = model(seg, seg, memory=memory, norm_term=norm_term)
        sizes.append(reachable_nodes(loss))
        loss.backward(retain_graph=True)
    opt.step()
    opt.zero_grad()
    return sizes


def train_long_sequence_detached(segments):
    sizes = []
    memory, norm_term = None, None
    for seg in segments:
        loss, memory, norm_term = model(seg, seg, memory=memory, norm_term=norm_term)
        memory, norm_term = memory.detach(), norm_term.detach()
        sizes.append(reachable_nodes(loss))
        loss.backward()
    opt.step()
    opt.zero_grad()
    return sizes


grown = train_long_sequence(segments)
assert all(b > a for a, b in zip(grown, grown[1:])), grown
assert grown[-1] > 2.5 * grown[0], grown

flat = train_long_sequence_detached(segments)
assert len(set(flat[1:])) == 1 and flat[-1] < grown[-1] / 2, flat
print("graph nodes per segment with carried memory:", grown, "| detached memory:", flat)
