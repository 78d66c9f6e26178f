"""source: https://github.com/EagleW/Writing-editing-Network/issues/3

A draft-then-edit decoder: each batch gets a drafting pass and an editing pass that
reads the draft's token ids.  Every pass calls loss.backward(retain_graph=True)
although nothing backpropagates that graph again; as the maintainers agreed, each
pass rebuilds its whole graph from a fresh forward and the draft is handed on as
integer ids, so the retained graph is one pass's worth and never grows.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def graph_size(t):
    seen, todo = set(), [t.grad_fn]
    while todo:
        fn = todo.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            todo.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class DraftEditor(nn.Module):
    def __init__(self, vocab=30, dim=32):
        super().__init__()
        self.src_emb, self.draft_emb = nn.Embedding(vocab, dim), nn.Embedding(vocab, dim)
        self.gru, self.proj = nn.GRU(dim, dim, batch_first=True), nn.Linear(dim, vocab)

    def forward(self, src, draft):
        out, _ = self.gru(self.src_emb(src) + self.draft_emb(draft))
        return self.proj(out)


torch.manual_seed(0)
model = DraftEditor()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
sizes = []
for batch in range(4):
    src, tgt = torch.randint(1, 30, (4, 7)), torch.randint(1, 30, (4, 7))
    draft = torch.zeros_like(src)
    for edit_pass in range(2):
        logits = model(src, draft)
        loss = F.cross_entropy(logits.reshape(-1, 30), tgt.reshape(-1))
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()
        draft = logits.argmax(-1)  # integer ids carry no graph
        sizes.append(graph_size(loss))

assert len(set(sizes)) == 1, sizes
print("graph constant:", sizes)
