"""
expect: none
dynamic: dismiss
source: kinds check 50, kind 4

Character-level next-token model trained with truncated BPTT of length one: the GRU
hidden state is carried across iterations but detached at the start of each one, so the
retain_graph=True backward in trainer.apply_update only walks the current step's graph.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from trainer import apply_update

torch.manual_seed(7)
vocab = 12
emb = nn.Embedding(vocab, 8)
cell = nn.GRUCell(8, 24)
out = nn.Linear(24, vocab)
params = [*emb.parameters(), *cell.parameters(), *out.parameters()]
opt = torch.optim.Adam(params, lr=0.01)
text = torch.arange(300) % vocab  # 0 1 2 ... 11 0 1 ...


def graph_size(t):
    seen, todo = set(), [t.grad_fn]
    while todo:
        fn = todo.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        todo.extend(f for f, _ in fn.next_functions)
    return len(seen)


h = torch.zeros(1, 24)
sizes, losses = [], []
for i in range(len(text) - 1):
    h = h.detach()
    h = cell(emb(text[i:i + 1]), h)
    loss = F.cross_entropy(out(h), text[i + 1:i + 2])
    sizes.append(graph_size(loss))
    apply_update(opt, loss)
    losses.append(loss.item())
assert len(set(sizes)) == 1, set(sizes)
assert sum(losses[-20:]) / 20 < 0.3 * sum(losses[:20]) / 20
print("k08 ok: constant graph size", sizes[0], "loss", losses[0], "->", losses[-1])
