"""expect: none
dynamic: dismiss
source: https://github.com/luyug/GradCache/issues/29

Dense-retrieval / sentence-embedding training with an in-batch-negative contrastive loss, done the
gradient-cache way so the batch can be larger than memory allows. The representations are first computed
under no_grad in chunks, then turned into fresh leaves with `.detach().requires_grad_()`, the contrastive loss
is backpropagated only to those leaves, and each chunk is re-encoded with grad and backpropagated through
`torch.dot(reps.flatten(), cached_grad.flatten())`, the surrogate the issue asks about. The no_grad
forward, the detach and the requires_grad_ look like a cut path and a requires-grad switch, but the surrogate
hands the cached gradient to the encoder, so every parameter gets exactly the full-batch gradient. The
asserts compare the encoder gradients with a plain full-batch backward and show the loss falling in training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from gradcache import GradCache

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, DIM = 200, 16


class BagEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, 32, mode="mean")
        self.proj = nn.Linear(32, DIM)

    def forward(self, token_ids):
        return F.normalize(self.proj(self.emb(token_ids)), dim=-1)


def info_nce(q, p, temperature=0.1):
    logits = q @ p.t() / temperature
    return F.cross_entropy(logits, torch.arange(q.shape[0]))


def make_pairs(n=32, length=6):
    queries = torch.randint(0, VOCAB, (n, length))
    passages = queries.clone()
    passages[:, ::2] = torch.randint(0, VOCAB, (n, (length + 1) // 2))
    return queries, passages


torch.manual_seed(1)
q_enc, p_enc = BagEncoder(), BagEncoder()
ref_q, ref_p = BagEncoder(), BagEncoder()
ref_q.load_state_dict(q_enc.state_dict())
ref_p.load_state_dict(p_enc.state_dict())

queries, passages = make_pairs()
cache = GradCache(q_enc, p_enc, info_nce, chunk_size=8)
loss_cached = cache(queries, passages)

loss_full = info_nce(ref_q(queries), ref_p(passages))
loss_full.backward()
assert torch.allclose(loss_cached, loss_full.detach(), atol=1e-6)
for enc, ref in ((q_enc, ref_q), (p_enc, ref_p)):
    for a, b in zip(enc.parameters(), ref.parameters()):
        assert a.grad is not None and a.grad.abs().sum() > 0
        assert torch.allclose(a.grad, b.grad, atol=1e-5)

opt = torch.optim.Adam(list(q_enc.parameters()) + list(p_enc.parameters()), lr=1e-2)
data = [make_pairs() for _ in range(4)]
losses = []
for _ in range(25):
    for q, p in data:
        opt.zero_grad()
        losses.append(cache(q, p).item())
        opt.step()
assert sum(losses[-4:]) < 0.5 * sum(losses[:4])
print("ok: cached-gradient step matches the full-batch gradient; loss %.3f -> %.3f" % (losses[0], losses[-1]))
