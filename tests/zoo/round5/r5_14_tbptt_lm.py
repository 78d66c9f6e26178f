"""source: https://github.com/quark0/darts/issues/56

Truncated-BPTT training of an LSTM language model over consecutive chunks of one token
stream. The hidden state is carried between chunks but passed through `repackage_hidden`
(detach) first, as the maintainers advise; the leftover retain_graph=True only keeps one
chunk's graph alive, so the graph size stays constant and optimizer.step() is safe.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class WordLM(nn.Module):
    def __init__(self, vocab=50, emb=16, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True)
        self.decoder = nn.Linear(hidden, vocab)

    def forward(self, tokens, hidden):
        out, hidden = self.lstm(self.embed(tokens), hidden)
        return self.decoder(out), hidden


torch.manual_seed(0)
stream = torch.randint(0, 50, (4, 121))
model = WordLM()
opt = torch.optim.SGD(model.parameters(), lr=0.5)
hidden = None
sizes = []

for start in range(0, 120, 20):
    inputs, targets = stream[:, start:start + 20], stream[:, start + 1:start + 21]
    if hidden is not None:
        hidden = repackage_hidden(hidden)
    logits, hidden = model(inputs, hidden)
    loss = F.cross_entropy(logits.reshape(-1, 50), targets.reshape(-1))
    opt.zero_grad()
    loss.backward(retain_graph=True)
    nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    opt.step()
    sizes.append(graph_size(loss))

assert len(set(sizes[1:])) == 1, sizes
print("ok: graph size constant:", sizes)
