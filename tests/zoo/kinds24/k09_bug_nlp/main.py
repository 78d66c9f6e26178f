"""
expect: GL003 gradcache.py:22
dynamic: confirm
source: kinds check 24, kind 9 (written for this check)

The gradient-cache step (gradcache.py) embeds queries and passages in chunks without a graph,
turns the embeddings into new leaves with `.detach().requires_grad_()` and backpropagates the
contrastive loss to them, but never hands the cached gradients back to the encoder with a
second forward. The asserts show the cached gradient is nonzero while every encoder
parameter's grad stays None and the optimizer step leaves the encoder unchanged.
"""
import torch
import torch.nn as nn

from gradcache import CachedContrastiveStep

torch.set_num_threads(1)
torch.manual_seed(0)


class BagOfWordsEncoder(nn.Module):
    def __init__(self, vocab=50, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.proj = nn.Sequential(nn.Linear(d, d), nn.Tanh(), nn.Linear(d, d))

    def forward(self, tokens):
        return self.proj(self.emb(tokens).mean(1))


encoder = BagOfWordsEncoder()
opt = torch.optim.AdamW(encoder.parameters(), lr=1e-3)
queries = torch.randint(0, 50, (8, 6))
passages = torch.randint(0, 50, (8, 6))
passages[:, :3] = queries[:, :3]

before = [p.detach().clone() for p in encoder.parameters()]
step = CachedContrastiveStep(encoder, chunk_size=4)
opt.zero_grad()
loss, cached = step(queries, passages)
opt.step()
assert cached is not None and cached.abs().sum() > 0
assert all(p.grad is None for p in encoder.parameters())
assert all(torch.equal(a, p) for a, p in zip(before, encoder.parameters()))
print("bug confirmed: cached representation gradients never reach the encoder")
