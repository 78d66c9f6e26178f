"""
expect: GL004 86
dynamic: confirm
source: none, invented

Character-level LSTM language model trained with truncated backpropagation through time and gradient
accumulation: every `bptt` characters the chunk loss is backpropagated with retain_graph=True and reset to 0,
the carried (h, c) state goes through repackage_hidden, and the optimizer steps once per sequence. The helper
was meant to start a fresh history for the next chunk, but it hands the tensors back as they are, so each
chunk's loss still hangs off the whole graph of every earlier chunk; retain_graph=True keeps that graph alive,
so every backward walks further back and earlier chunks receive their gradients again. The asserts count the
autograd nodes behind each chunk loss: they grow by the same amount chunk after chunk (the sixth over three
times the first), while with new_segment_state, which returns detached copies, every chunk has the same graph
size and the model's loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

TEXT = "the quick brown fox jumps over the lazy dog. " * 40
VOCAB = sorted(set(TEXT))
STOI = {ch: i for i, ch in enumerate(VOCAB)}
DATA = torch.tensor([STOI[ch] for ch in TEXT])


class CharLSTM(nn.Module):
    def __init__(self, vocab, emb=16, hidden=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True)
        self.decoder = nn.Linear(hidden, vocab)
        self.hidden = hidden

    def init_state(self, batch):
        return (torch.zeros(1, batch, self.hidden), torch.zeros(1, batch, self.hidden))

    def forward(self, tokens, state):
        out, state = self.lstm(self.embed(tokens), state)
        return self.decoder(out), state


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h
    return tuple(repackage_hidden(v) for v in h)


def new_segment_state(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(new_segment_state(v) for v in h)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


def batches(batch=8, seq_len=60, n=20):
    for _ in range(n):
        starts = torch.randint(0, len(DATA) - seq_len - 1, (batch,))
        seq = torch.stack([DATA[s:s + seq_len + 1] for s in starts])
        yield seq[:, :-1], seq[:, 1:]


def train_epoch(model, opt, bptt=10):
    sizes, losses = [], []
    for inputs, targets in batches():
        state = model.init_state(inputs.size(0))
        opt.zero_grad()
        chunk_loss = 0
        for t in range(inputs.size(1)):
            logits, state = model(inputs[:, t:t + 1], state)
            chunk_loss = chunk_loss + F.cross_entropy(logits[:, 0], targets[:, t])
            if (t + 1) % bptt == 0:
                sizes.append(graph_size(chunk_loss))
                chunk_loss.backward(retain_graph=True)
                losses.append(chunk_loss.item() / bptt)
                chunk_loss = 0
                state = repackage_hidden(state)
        opt.step()
    return sizes, losses


def train_epoch_segmented(model, opt, bptt=10):
    sizes, losses = [], []
    for inputs, targets in batches():
        state = model.init_state(inputs.size(0))
        opt.zero_grad()
        chunk_loss = 0
        for t in range(inputs.size(1)):
            logits, state = model(inputs[:, t:t + 1], state)
            chunk_loss = chunk_loss + F.cross_entropy(logits[:, 0], targets[:, t])
            if (t + 1) % bptt == 0:
                sizes.append(graph_size(chunk_loss))
                chunk_loss.backward(retain_graph=True)
                losses.append(chunk_loss.item() / bptt)
                chunk_loss = 0
                state = new_segment_state(state)
        opt.step()
    return sizes, losses


def main():
    model = CharLSTM(len(VOCAB))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    sizes, _ = train_epoch(model, opt)
    per_seq = sizes[:6]
    assert all(b > a for a, b in zip(per_seq, per_seq[1:])), per_seq
    steps = {b - a for a, b in zip(per_seq, per_seq[1:])}
    assert len(steps) == 1 and per_seq[-1] > 3 * per_seq[0], per_seq

    torch.manual_seed(0)
    model = CharLSTM(len(VOCAB))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    sizes, losses = train_epoch_segmented(model, opt)
    assert len(set(sizes)) == 1, sizes
    for _ in range(2):
        sizes, more = train_epoch_segmented(model, opt)
        losses += more
    assert sum(losses[-12:]) / 12 < 0.5 * sum(losses[:12]) / 12
    print(f"k10: graph per chunk {per_seq} vs constant {sizes[0]}")


if __name__ == "__main__":
    main()
