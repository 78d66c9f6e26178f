"""
expect: GL005 23
dynamic: confirm
source: kinds check 47, kind 3

A clinical-notes tagger zeroes the padded steps of its nn.LSTM output with an
in-place masked_fill_ in a helper method. The LSTM saved that output for its own
backward, so loss.backward() raises "modified by an inplace operation".
"""
import torch
import torch.nn as nn


class NoteTagger(nn.Module):
    def __init__(self, vocab=50, emb=8, hid=16, tags=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.rnn = nn.LSTM(emb, hid, batch_first=True)
        self.head = nn.Linear(hid, tags)

    def _drop_padding(self, seq, lengths):
        pad = torch.arange(seq.size(1)).unsqueeze(0) >= lengths.unsqueeze(1)
        seq.masked_fill_(pad.unsqueeze(-1), 0.0)
        return seq

    def forward(self, tokens, lengths):
        out, _ = self.rnn(self.emb(tokens))
        return self.head(self._drop_padding(out, lengths))


torch.manual_seed(4)
tagger = NoteTagger()
tokens = torch.randint(0, 50, (3, 7))
lengths = torch.tensor([7, 5, 2])
labels = torch.randint(0, 4, (3, 7))
logits = tagger(tokens, lengths)
loss = nn.functional.cross_entropy(logits.reshape(-1, 4), labels.reshape(-1))
try:
    loss.backward()
    raise AssertionError("expected in-place error")
except RuntimeError as e:
    assert "modified by an inplace operation" in str(e)
print("k05 ok: in-place mask on LSTM output breaks backward")
