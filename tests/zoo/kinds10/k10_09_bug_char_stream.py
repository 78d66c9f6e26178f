"""
expect: GL004 42
dynamic: confirm
source: kinds check 10, kind 9

An online character-level language model keeps its GRU state on `self.state`
and builds each new state from the previous one. learn() calls self(x), scores
the next character and calls loss.backward(retain_graph=True), so every call
chains onto the whole retained history: the graph behind each loss (and the
backward cost) grows by one step per character.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

TEXT = "the quick brown fox jumps over the lazy dog "
VOCAB = sorted(set(TEXT))
STOI = {ch: i for i, ch in enumerate(VOCAB)}


class StreamingCharLM(nn.Module):
    def __init__(self, vocab_size, hidden=32):
        super().__init__()
        self.hidden = hidden
        self.embed = nn.Embedding(vocab_size, hidden)
        self.cell = nn.GRUCell(hidden, hidden)
        self.readout = nn.Linear(hidden, vocab_size)
        self.reset_state()

    def reset_state(self, batch=1):
        self.state = torch.zeros(batch, self.hidden)

    def forward(self, chars):
        self.state = self.cell(self.embed(chars), self.state)
        return self.readout(self.state)

    def learn(self, chars, next_chars):
        logits = self(chars)
        loss = F.cross_entropy(logits, next_chars)
        loss.backward(retain_graph=True)
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

    sizes = []
    for t in range(12):
        loss = model.learn(ids[t:t + 1], ids[t + 1:t + 2])
        sizes.append(graph_size(loss))

    growth = [b - a for a, b in zip(sizes, sizes[1:])]
    assert all(g > 0 for g in growth), sizes
    assert sizes[-1] > 3 * sizes[0], sizes
    assert model.cell.weight_hh.grad is not None
    print("graph sizes", sizes)
    print("OK")


if __name__ == "__main__":
    main()
