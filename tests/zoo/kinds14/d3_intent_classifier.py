"""
expect: none
dynamic: dismiss
source: kind D

An intent classifier whose text encoder is restored from a saved state_dict (a pretrained
part, serialised to an in-memory buffer here), frozen with requires_grad_(False), and run under
torch.no_grad() on purpose inside `encode`; a BatchNorm in the head also gathers running
statistics. The asserts show the encoder stays equal to the checkpoint while the head's
weights change and the BatchNorm running mean updates.
"""
import io

import torch
import torch.nn as nn
import torch.nn.functional as F


class TextEncoder(nn.Module):
    def __init__(self, vocab=100, dim=16):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.proj = nn.Linear(dim, dim)

    def forward(self, tokens):
        return torch.tanh(self.proj(self.embed(tokens)))


torch.manual_seed(0)
pretrained = TextEncoder()
buffer = io.BytesIO()
torch.save(pretrained.state_dict(), buffer)


class IntentClassifier(nn.Module):
    def __init__(self, checkpoint, n_intents=5):
        super().__init__()
        self.encoder = TextEncoder()
        self.encoder.load_state_dict(torch.load(checkpoint))
        self.encoder.requires_grad_(False)
        self.norm = nn.BatchNorm1d(16)
        self.head = nn.Linear(16, n_intents)

    def encode(self, tokens):
        with torch.no_grad():
            return self.encoder(tokens)

    def forward(self, tokens):
        return self.head(self.norm(self.encode(tokens)))


buffer.seek(0)
model = IntentClassifier(buffer)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
tokens = torch.randint(0, 100, (20, 7))
intents = torch.randint(0, 5, (20,))
head_before = model.head.weight.detach().clone()
mean_before = model.norm.running_mean.clone()
model.train()
for _ in range(3):
    opt.zero_grad()
    F.cross_entropy(model(tokens), intents).backward()
    opt.step()
assert not torch.equal(model.head.weight, head_before)
assert not torch.equal(model.norm.running_mean, mean_before)
for name, p in model.encoder.state_dict().items():
    assert torch.equal(p, pretrained.state_dict()[name]), name
print("d3 ok")
