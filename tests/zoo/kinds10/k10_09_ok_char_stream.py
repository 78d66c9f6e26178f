"""
expect: none
dynamic: dismiss
source: kinds check 10, kind 9

The same online character-level language model, but forward starts each step
from `self.state.detach()` (truncated BPTT of one step), so learn() can call
plain loss.backward() and step its optimizer on every character. The graph
behind each loss has a constant size and all parameters keep training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

TEXT = "the quick brown fox jumps over the lazy dog "
VOCAB = sorted(set(TEXT))
STOI = {ch: i for i, ch in enumerate(VOCAB)}


class StreamingCharLM(nn.Module):
    def __init__(self, vocab_size, hidden=32, lr=0.05):
        super().__init__()
        self.hidden = hidden
        self.embed = nn.Embedding(vocab_size, hidden)
        self.cell = nn.GRUCell(hidden, hidden)
        self.readout = nn.Linear(hidden, vocab_size)
        self.optimizer = torch.optim.SGD(self.parameters(), lr=lr)
        self.reset_state()

    def reset_state(self, batch=1):
        self.state = torch.zeros(batch, self.hidden)

    def forward(self, chars):
        self.state = self.cell(self.embed(chars), self.state.detach())
        return self.readout(self.state)

    def learn(self, chars, next_chars):
        logits = self(chars)
        loss = F.cross_entropy(logits, next_chars)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss


def graph_size(tensor):
    seen, stack = set(), [tensor.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


def main():
    model = StreamingCharLM(len(VOCAB))
    ids = torch.tensor([STOI[c] for c in TEXT])
    before = {n: p.detach().clone() for n, p in model.named_parameters()}

    sizes = []
    for t in range(12):
        loss = model.learn(ids[t:t + 1], ids[t + 1:t + 2])
        sizes.append(graph_size(loss))

    assert len(set(sizes[1:])) == 1, sizes
    for name, p in model.named_parameters():
        assert p.grad is not None, name
        assert not torch.equal(p, before[name]), name
    print("graph sizes", sizes)
    print("OK")


if __name__ == "__main__":
    main()
