"""
expect: none
dynamic: dismiss
source: kinds check 26, kind 5

Same text classifier and BagEncoder returning (features, energy.detach()),
but the top model only logs the energy with .item() for monitoring; the loss
is plain cross-entropy, so nothing that should train is cut.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


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
        self.energy_log = []

    def forward(self, tokens):
        features, energy = self.encoder(tokens)
        return self.head(features), energy

    def compute_loss(self, tokens, labels):
        logits, energy = self(tokens)
        self.energy_log.append(energy.mean().item())
        return F.cross_entropy(logits, labels)


torch.manual_seed(0)
model = TopicModel()
tokens = torch.randint(0, 50, (12, 7))
labels = torch.randint(0, 3, (12,))
model.compute_loss(tokens, labels).backward()
assert model.encoder.proj.weight.grad.abs().sum() > 0
assert model.encoder.bag.weight.grad.abs().sum() > 0
assert len(model.energy_log) == 1 and model.energy_log[0] >= 0
print("ok: energy only logged")
