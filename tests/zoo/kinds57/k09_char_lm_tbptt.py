"""
expect: none
dynamic: dismiss
source: none, invented

A character-level LSTM language model is trained on a long repeating text with truncated
backpropagation through time. Between chunks the carried `(h, c)` state is cut in place with
`h.detach_()` / `c.detach_()` so that the next chunk's backward stops at the chunk boundary, and the
value shown in the progress log is a copy (`shown = loss.clone(); shown.detach_()`). The loss that is
backpropagated is never detached, so every parameter learns; the in-place detaches are exactly the
standard TBPTT idiom. The asserts show all parameters receive gradients, the carried state has no
`grad_fn` after the cut (so no "backward through the graph a second time" error across chunks), and the
per-character loss falls well below its starting value.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

TEXT = "the quick brown fox jumps over the lazy dog. " * 40
CHARS = sorted(set(TEXT))
STOI = {ch: i for i, ch in enumerate(CHARS)}


class CharLSTM(nn.Module):
    def __init__(self, vocab, dim=48):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids, state=None):
        out, state = self.lstm(self.embed(ids), state)
        return self.head(out), state


def batchify(ids, n_streams):
    usable = (len(ids) // n_streams) * n_streams
    return ids[:usable].view(n_streams, -1)


def main(bptt=25, epochs=4):
    ids = torch.tensor([STOI[c] for c in TEXT])
    streams = batchify(ids, 8)
    model = CharLSTM(len(CHARS))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    log = []
    for epoch in range(epochs):
        state = None
        for start in range(0, streams.shape[1] - 1 - bptt, bptt):
            inp = streams[:, start:start + bptt]
            tgt = streams[:, start + 1:start + 1 + bptt]
            if state is not None:
                for s in state:
                    s.detach_()
                assert all(s.grad_fn is None for s in state)
            logits, state = model(inp, state)
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tgt.reshape(-1))
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            shown = loss.clone()
            shown.detach_()
            log.append(shown.item())
        print(f"epoch {epoch}: last chunk loss {log[-1]:.3f}")
    return model, log


if __name__ == "__main__":
    model, log = main()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
    assert log[0] > 0.9 * math.log(len(CHARS))
    assert log[-1] < 0.3 * log[0], (log[0], log[-1])
