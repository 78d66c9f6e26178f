import torch
import torch.nn as nn


class WordLM(nn.Module):
    def __init__(self, vocab=40, nhid=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, nhid)
        self.rnn = nn.GRU(nhid, nhid)
        self.head = nn.Linear(nhid, vocab)
        self.nhid = nhid

    def init_hidden(self, bsz):
        weight = self.head.weight
        return weight.new_zeros(1, bsz, self.nhid)

    def forward(self, tokens, hidden):
        out, hidden = self.rnn(self.embed(tokens), hidden)
        return self.head(out), hidden


def repackage(hidden):
    return hidden.detach()


def sgd_step(params, lr, clip):
    grads = [p.grad.data for p in params if p.grad is not None]
    total = torch.sqrt(sum((g * g).sum() for g in grads))
    scale = min(1.0, clip / (total.item() + 1e-6))
    for p in params:
        if p.grad is not None:
            p.data.add_(p.grad.data, alpha=-lr * scale)
            p.grad.data.zero_()
