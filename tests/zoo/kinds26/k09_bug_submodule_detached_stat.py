"""
expect: GL001 27
dynamic: confirm
source: kinds check 26, kind 5

A small text classifier whose BagEncoder submodule returns (features,
energy.detach()). The top model's compute_loss adds
lam * energy.mean() as a sparsity penalty, but the detach inside the
submodule makes that term a constant: encoder gradients match plain CE.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

LAM = 0.3


class BagEncoder(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.bag = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.proj = nn.Linear(dim, dim)

    def forward(self, tokens):
        features = torch.relu(self.proj(self.bag(tokens)))
        energy = features.pow(2).sum(dim=1)
        return features, energy.detach()


class TopicModel(nn.Module):
    def __init__(self, vocab=50, dim=10, topics=3):
        super().__init__()
        self.encoder = BagEncoder(vocab, dim)
        self.head = nn.Linear(dim, topics)

    def forward(self, tokens):
        features, energy = self.encoder(tokens)
        return self.head(features), energy

    def compute_loss(self, tokens, labels, lam=LAM):
        logits, energy = self(tokens)
        return F.cross_entropy(logits, labels) + lam * energy.mean()


torch.manual_seed(0)
model = TopicModel()
tokens = torch.randint(0, 50, (12, 7))
labels = torch.randint(0, 3, (12,))
model.compute_loss(tokens, labels).backward()
with_penalty = model.encoder.proj.weight.grad.clone()

model.zero_grad()
model.compute_loss(tokens, labels, lam=0.0).backward()
assert torch.allclose(with_penalty, model.encoder.proj.weight.grad)
print("ok: energy penalty is dead")
