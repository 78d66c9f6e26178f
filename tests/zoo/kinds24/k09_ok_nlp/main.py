"""
expect: none
dynamic: dismiss
source: kinds check 24, kind 9 (written for this check)

The gradient-cache step (gradcache.py) embeds queries and passages without a graph, makes the
embeddings new leaves with `.detach().requires_grad_()`, backpropagates the contrastive loss
to them, and then replays each chunk through the encoder with a graph and calls
`rep.backward(cached_grad)`. The asserts show every encoder parameter gets a nonzero gradient
equal to the one from an ordinary full-batch backward, and the optimizer step moves them.
"""
import copy

import torch
import torch.nn as nn

from gradcache import CachedContrastiveStep, in_batch_nce

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
reference = copy.deepcopy(encoder)
opt = torch.optim.AdamW(encoder.parameters(), lr=1e-3)
queries = torch.randint(0, 50, (8, 6))
passages = torch.randint(0, 50, (8, 6))
passages[:, :3] = queries[:, :3]

before = [p.detach().clone() for p in encoder.parameters()]
opt.zero_grad()
loss, cached = CachedContrastiveStep(encoder, chunk_size=4)(queries, passages)
ref_loss = in_batch_nce(reference(queries), reference(passages))
ref_loss.backward()
assert torch.allclose(loss, ref_loss.detach(), atol=1e-6)
for p, r in zip(encoder.parameters(), reference.parameters()):
    assert p.grad is not None and p.grad.abs().sum() > 0
    assert torch.allclose(p.grad, r.grad, atol=1e-5)
opt.step()
assert all(not torch.equal(a, p) for a, p in zip(before, encoder.parameters()))
print("ok: cached gradients are handed back to the encoder; it trains")
