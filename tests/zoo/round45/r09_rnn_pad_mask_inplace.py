"""expect: GL005 33
dynamic: confirm
source: https://github.com/kaniblu/pytorch-models/pull/8

A sentence classifier runs an LSTM over padded token sequences and, like the reusable BaseRNN module of
the linked project before its "removed inplace operation" fix, zeroes the outputs at padded positions
with an in-place masked_fill_ on the LSTM output before mean-pooling. The LSTM kernel keeps its output
tensor for its own backward, so the in-place write bumps the version of a saved tensor and backward()
fails with "modified by an inplace operation". The asserts catch that error and show that the
out-of-place masked_fill version trains (embedding and LSTM weights get gradients, loss falls).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BaseRNN(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.rnn = nn.LSTM(in_dim, hidden, batch_first=True)

    def forward(self, x, lens=None):
        o, (h, c) = self.rnn(x)
        return self.mask_padding(o, lens), c, h

    @staticmethod
    def make_mask(lens, max_len):
        return torch.arange(max_len)[None, :] < lens[:, None]

    def mask_padding(self, o, lens):
        if lens is not None:
            mask = self.make_mask(lens, o.shape[1])
            o.masked_fill_(~mask.unsqueeze(-1), 0)
        return o


class OutOfPlaceRNN(BaseRNN):
    def mask_padding(self, o, lens):
        if lens is not None:
            mask = self.make_mask(lens, o.shape[1])
            o = o.masked_fill(~mask.unsqueeze(-1), 0)
        return o


class SentenceClassifier(nn.Module):
    def __init__(self, rnn_cls, vocab=300, emb=16, hidden=32, n_cls=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=0)
        self.rnn = rnn_cls(emb, hidden)
        self.out = nn.Linear(hidden, n_cls)

    def forward(self, tokens, lens):
        o, _, _ = self.rnn(self.emb(tokens), lens)
        pooled = o.sum(dim=1) / lens[:, None].float()
        return self.out(pooled)


def make_batch(b=16, max_len=12):
    lens = torch.randint(3, max_len + 1, (b,))
    tokens = torch.randint(1, 300, (b, max_len))
    tokens[torch.arange(max_len)[None, :] >= lens[:, None]] = 0
    labels = tokens[:, 0] % 3                              # label = first token id mod 3
    return tokens, lens, labels


torch.manual_seed(0)
torch.set_num_threads(1)

model = SentenceClassifier(BaseRNN)
tokens, lens, labels = make_batch()
loss = F.cross_entropy(model(tokens, lens), labels)
try:
    loss.backward()
    raise AssertionError("expected the in-place padding mask to break backward")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err)

torch.manual_seed(0)
fixed = SentenceClassifier(OutOfPlaceRNN)
opt = torch.optim.Adam(fixed.parameters(), lr=1e-2)
batch = make_batch(b=64)
history = []
for _ in range(40):
    loss = F.cross_entropy(fixed(batch[0], batch[1]), batch[2])
    opt.zero_grad()
    loss.backward()
    assert fixed.rnn.rnn.weight_ih_l0.grad.abs().sum() > 0 and fixed.emb.weight.grad.abs().sum() > 0
    opt.step()
    history.append(loss.item())
assert history[-1] < history[0]

print("in-place mask breaks backward; out-of-place mask loss %.3f -> %.3f" % (history[0], history[-1]))
