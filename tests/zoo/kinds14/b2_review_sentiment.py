"""
expect: GL001 26
dynamic: confirm
source: kind B

A bag-of-embeddings review sentiment classifier whose `forward` pools token embeddings
through a `@staticmethod` of the class; the static helper returns the masked mean detached.
The asserts show the embedding table (held by the optimizer) gets no gradient and does not
change, while a version pooling without the detach updates it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ReviewSentiment(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.head = nn.Linear(dim, 2)

    @staticmethod
    def masked_mean(vectors, tokens):
        mask = (tokens != 0).unsqueeze(-1).float()
        pooled = (vectors * mask).sum(1) / mask.sum(1).clamp(min=1)
        return pooled.detach()

    def forward(self, tokens):
        pooled = ReviewSentiment.masked_mean(self.embed(tokens), tokens)
        return self.head(pooled)


class ReviewSentimentFixed(ReviewSentiment):
    def forward(self, tokens):
        vectors = self.embed(tokens)
        mask = (tokens != 0).unsqueeze(-1).float()
        pooled = (vectors * mask).sum(1) / mask.sum(1).clamp(min=1)
        return self.head(pooled)


def train(cls):
    torch.manual_seed(0)
    tokens = torch.randint(0, 50, (16, 9))
    labels = torch.randint(0, 2, (16,))
    model = cls(50, 8)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    before = model.embed.weight.detach().clone()
    for _ in range(3):
        opt.zero_grad()
        F.cross_entropy(model(tokens), labels).backward()
        opt.step()
    return model, before


model, before = train(ReviewSentiment)
assert model.embed.weight.grad is None
assert torch.equal(model.embed.weight, before)
assert model.head.weight.grad is not None

model, before = train(ReviewSentimentFixed)
assert model.embed.weight.grad is not None
assert not torch.equal(model.embed.weight, before)
print("b2 ok")
