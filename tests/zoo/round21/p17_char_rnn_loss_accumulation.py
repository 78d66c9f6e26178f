"""
expect: none
dynamic: dismiss
source: https://github.com/spro/practical-pytorch/pull/29

A pull request to the practical-pytorch char-RNN tutorial proposed to stop "adding the loss
to itself" (loss += criterion(output, target[c]) for every character), citing a thread
about memory growing every iteration. The maintainer declined: for an RNN the whole graph
of the chunk is needed to backpropagate through time, and the hidden state is re-created
for every chunk, so nothing carries over between training steps. This program keeps that
training function. The asserts show the summed loss gives the same gradient as the mean of
stacked per-step losses times the length, the graph size per chunk is constant (no growth
across steps), every parameter gets a gradient, and the loss falls.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
n_chars, chunk_len = 20, 12


class CharRNN(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.hidden_size = hidden
        self.encoder = nn.Embedding(n_chars, hidden)
        self.gru = nn.GRUCell(hidden, hidden)
        self.decoder = nn.Linear(hidden, n_chars)

    def forward(self, char, hidden):
        hidden = self.gru(self.encoder(char), hidden)
        return self.decoder(hidden), hidden

    def init_hidden(self):
        return torch.zeros(1, self.hidden_size)


def graph_nodes(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


criterion = nn.CrossEntropyLoss()


def train(decoder, optimizer, inp, target):
    hidden = decoder.init_hidden()
    decoder.zero_grad()
    loss = 0
    for c in range(chunk_len):
        output, hidden = decoder(inp[c:c + 1], hidden)
        loss += criterion(output, target[c:c + 1])
    size = graph_nodes(loss)
    loss.backward()
    optimizer.step()
    return loss.item() / chunk_len, size


text = torch.randint(0, n_chars, (chunk_len + 1,))
inp, target = text[:-1], text[1:]
decoder = CharRNN()

decoder.zero_grad()                                    # same gradient as a stacked mean
hidden, outs = decoder.init_hidden(), []
for c in range(chunk_len):
    out, hidden = decoder(inp[c:c + 1], hidden)
    outs.append(out)
(criterion(torch.cat(outs), target) * chunk_len).backward()
ref = [p.grad.clone() for p in decoder.parameters()]
optimizer = torch.optim.SGD(decoder.parameters(), lr=0.0)
train(decoder, optimizer, inp, target)
assert all(torch.allclose(a, p.grad, atol=1e-6) for a, p in zip(ref, decoder.parameters()))

optimizer = torch.optim.Adam(decoder.parameters(), lr=5e-3)
losses, sizes = [], []
for epoch in range(60):
    loss, size = train(decoder, optimizer, inp, target)
    losses.append(loss)
    sizes.append(size)
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in decoder.parameters())
assert len(set(sizes)) == 1, "graph is rebuilt per chunk; it never grows across steps"
assert losses[-1] < losses[0] * 0.5, "loss falls"
print(f"ok: per-chunk loss accumulation is correct; loss {losses[0]:.3f} -> {losses[-1]:.3f}")
