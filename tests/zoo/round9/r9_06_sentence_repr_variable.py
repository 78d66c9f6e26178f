"""
expect: GL002 38
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/1760

A GRU sentence classifier keeps a handle on the pooled sentence vector so that its
gradient can be inspected afterwards (word-level saliency). To get a tensor whose `.grad`
is filled, forward() re-wraps the hidden state as `Variable(torch.Tensor(h.data.numpy()),
requires_grad=True)` and feeds that to the output layer. The re-wrapped vector is a new
leaf, so the classification loss stops there: the linear layer trains, the embedding and
GRU never receive a gradient. The program asserts embedding/GRU grads stay None and their
weights never move while the output layer trains, and that `retain_grad()` on the real
hidden state gives the same inspection without starving the encoder.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

torch.manual_seed(0)

VOCAB, DIM, CLASSES = 50, 16, 2


class SentenceClassifier(nn.Module):
    def __init__(self, keep_copy=True):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.encoder = nn.GRU(DIM, DIM, batch_first=True)
        self.fc = nn.Linear(DIM, CLASSES)
        self.keep_copy = keep_copy
        self.sent_repr = None

    def forward(self, tokens):
        _, h = self.encoder(self.embed(tokens))
        h = h.squeeze(0)
        if self.keep_copy:
            self.sent_repr = Variable(torch.Tensor(h.data.numpy()), requires_grad=True)
        else:
            h.retain_grad()
            self.sent_repr = h
        return self.fc(self.sent_repr)


def make_batch(n=16, length=7):
    tokens = torch.randint(0, VOCAB, (n, length))
    labels = (tokens < VOCAB // 2).sum(1).gt(length // 2).long()
    return tokens, labels


def train(keep_copy, steps=4):
    torch.manual_seed(1)
    model = SentenceClassifier(keep_copy)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    emb0 = model.embed.weight.detach().clone()
    gru0 = model.encoder.weight_ih_l0.detach().clone()
    fc0 = model.fc.weight.detach().clone()
    for _ in range(steps):
        tokens, labels = make_batch()
        loss = F.cross_entropy(model(tokens), labels)
        opt.zero_grad()
        loss.backward()
        assert model.sent_repr.grad is not None
        opt.step()
    return (model,
            not torch.equal(emb0, model.embed.weight),
            not torch.equal(gru0, model.encoder.weight_ih_l0),
            not torch.equal(fc0, model.fc.weight))


model, emb_moved, gru_moved, fc_moved = train(keep_copy=True)
assert model.embed.weight.grad is None and model.encoder.weight_ih_l0.grad is None
assert not emb_moved and not gru_moved and fc_moved

model, emb_moved, gru_moved, fc_moved = train(keep_copy=False)
assert emb_moved and gru_moved and fc_moved

print("OK")
