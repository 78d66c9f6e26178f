"""
expect: none
dynamic: dismiss
source: none, invented

A character-level LSTM language model trained with truncated backpropagation through time on a long stream.
`CharLMTrainer.fit_stream` steps an LSTMCell one character at a time, accumulates the chunk's loss, and every
`k` characters calls `(chunk_loss / k).backward(retain_graph=True)`, steps Adam and resets `chunk_loss = 0`.
Right after, the carried (h, c) goes through the trainer's own `_roll_state`, which returns detached copies,
so the next chunk's graph starts fresh and never reaches back into the graph whose weights Adam just changed.
`retain_graph=True` is redundant here but harmless. The asserts show every chunk backpropagates without error,
the graph hanging off the carried state stays one chunk long, and the loss falls on the repeated pattern.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

TEXT = "the quick brown fox jumps over the lazy dog. " * 40
VOCAB = sorted(set(TEXT))
STOI = {ch: i for i, ch in enumerate(VOCAB)}


def graph_depth(t):
    depth, fn = 0, t.grad_fn
    while fn is not None:
        depth += 1
        nxt = [f for f, _ in fn.next_functions if f is not None and type(f).__name__ != "AccumulateGrad"]
        fn = nxt[0] if nxt else None
    return depth


class CharLMTrainer:
    def __init__(self, hidden=96, k=20, lr=5e-3):
        self.embed = nn.Embedding(len(VOCAB), 32)
        self.cell = nn.LSTMCell(32, hidden)
        self.out = nn.Linear(hidden, len(VOCAB))
        self.params = [*self.embed.parameters(), *self.cell.parameters(), *self.out.parameters()]
        self.opt = torch.optim.Adam(self.params, lr=lr)
        self.hidden, self.k = hidden, k
        self.depths = []

    def _roll_state(self, state):
        return tuple(s.detach() for s in state)

    def fit_stream(self, ids):
        k = self.k
        state = (torch.zeros(1, self.hidden), torch.zeros(1, self.hidden))
        chunk_loss, history = 0.0, []
        for t in range(len(ids) - 1):
            state = self.cell(self.embed(ids[t:t + 1]), state)
            chunk_loss = chunk_loss + F.cross_entropy(self.out(state[0]), ids[t + 1:t + 2])
            if (t + 1) % k == 0:
                self.depths.append(graph_depth(state[0]))
                self.opt.zero_grad()
                (chunk_loss / k).backward(retain_graph=True)
                self.opt.step()
                history.append(chunk_loss.item() / k)
                chunk_loss = 0.0
                state = self._roll_state(state)
        return history


ids = torch.tensor([STOI[c] for c in TEXT])
trainer = CharLMTrainer()
history = []
for epoch in range(2):
    history += trainer.fit_stream(ids)

assert len(history) == 2 * ((len(ids) - 1) // trainer.k)
assert max(trainer.depths) == min(trainer.depths), (min(trainer.depths), max(trainer.depths))
first, last = sum(history[:5]) / 5, sum(history[-5:]) / 5
assert last < 0.5 * first, (first, last)
assert all(p.grad is not None for p in trainer.params)
print(f"ok: TBPTT chunk loss {first:.2f} -> {last:.2f}, graph depth stays {trainer.depths[0]}")
