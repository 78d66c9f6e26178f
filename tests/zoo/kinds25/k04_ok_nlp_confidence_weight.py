"""
expect: none
dynamic: dismiss
source: kinds check 25, kind 1

A small GRU part-of-speech tagger. forward returns token logits and a stats tuple holding the
detached per-token confidence and entropy. The caller does `logits, stats = model(tokens)` and
uses stats[0] as a per-token weight on the attached cross-entropy (self-paced weighting) and
logs stats[1]. The weight is a constant multiplying an attached term, so the whole tagger
trains and the weight really reshapes the gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

V, TAGS, B, T = 50, 6, 16, 12


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 32)
        self.rnn = nn.GRU(32, 32, batch_first=True)
        self.out = nn.Linear(32, TAGS)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        logits = self.out(h)
        probs = logits.softmax(-1)
        conf = probs.max(-1).values
        ent = -(probs * probs.clamp_min(1e-9).log()).sum(-1)
        return logits, {"conf": conf.detach(), "entropy": ent.detach()}


model = Tagger()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
tokens = torch.randint(0, V, (B, T))
tags = tokens % TAGS


def weighted_loss(logits, stats, use_weight=True):
    tok = F.cross_entropy(logits.reshape(-1, TAGS), tags.reshape(-1), reduction="none")
    w = (0.5 + stats["conf"].reshape(-1)) if use_weight else torch.ones_like(tok)
    return (w * tok).mean()


losses = []
for step in range(40):
    logits, stats = model(tokens)
    loss = weighted_loss(logits, stats)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
    mean_entropy = stats["entropy"].mean().item()

model.zero_grad()
logits, stats = model(tokens)
weighted_loss(logits, stats).backward()
g_w = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
logits, stats = model(tokens)
weighted_loss(logits, stats, use_weight=False).backward()
g_1 = [p.grad.clone() for p in model.parameters()]
assert all(g.abs().sum() > 0 for g in g_w), "every tagger parameter trains"
assert any(not torch.allclose(a, b) for a, b in zip(g_w, g_1)), "the weight reshapes gradients"
assert losses[-1] < losses[0] * 0.8, (losses[0], losses[-1])
print("ok: trained from", round(losses[0], 3), "to", round(losses[-1], 3), "entropy", round(mean_entropy, 3))
