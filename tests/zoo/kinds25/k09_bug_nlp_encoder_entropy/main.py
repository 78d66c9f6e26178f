"""
expect: GL001 encoder.py:18
dynamic: confirm
source: kinds check 25, kind 3

Sentiment classifier whose top model builds `self.encoder = AttnPoolEncoder(...)`. The encoder
returns the pooled vector and the attention entropy, but detaches the entropy before returning
it. The top model's compute_loss adds lam * entropy.mean() to sharpen the attention; that term
is built only from the detached entropy, so it never reaches the attention scorer. The
optimizer covers model.parameters(), yet lam changes no gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from encoder import AttnPoolEncoder

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, DIM, B, T = 60, 24, 32, 10


class SentimentClassifier(nn.Module):
    def __init__(self, lam=0.1):
        super().__init__()
        self.encoder = AttnPoolEncoder(VOCAB, DIM)
        self.head = nn.Linear(DIM, 2)
        self.lam = lam

    def compute_loss(self, tokens, labels):
        pooled, entropy = self.encoder(tokens)
        logits = self.head(pooled)
        ent_term = entropy.mean()
        return F.cross_entropy(logits, labels) + self.lam * ent_term, ent_term


model = SentimentClassifier(lam=0.1)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
tokens = torch.randint(0, VOCAB, (B, T))
labels = (tokens[:, 0] % 2).long()

for step in range(20):
    loss, _ = model.compute_loss(tokens, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()


def grads_with(lam):
    model.lam = lam
    model.zero_grad()
    loss, ent = model.compute_loss(tokens, labels)
    loss.backward()
    return [p.grad.clone() for p in model.parameters()], ent.item()


g_lam, ent_value = grads_with(0.1)
g_0, _ = grads_with(0.0)
assert ent_value > 0.0
assert all(torch.equal(a, b) for a, b in zip(g_lam, g_0)), "lam changes no gradient"
print("ok: entropy term is dead, value", round(ent_value, 4))
