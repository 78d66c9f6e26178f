"""
expect: none
dynamic: dismiss
source: https://github.com/tristandeleu/pytorch-meta/blob/8fc5fc322af3c402c0781b5eec8949cb5422a5bd/torchmeta/utils/prototype.py

Look-alike from a meta-learning library: prototypes for a prototypical
network are class means of support embeddings, and the per-class counts
are computed inside a `torch.no_grad()` block with an in-place
`scatter_add_`. The no_grad region only touches label-derived integers, not
the embeddings, so the prototypes (and the query loss) still train the
encoder. The asserts check every encoder parameter gets a non-zero grad,
that it matches a plain reference computation, and that the loss drops.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def class_counts(labels, n_way, dtype):
    with torch.no_grad():
        ones = torch.ones_like(labels, dtype=dtype)
        counts = ones.new_zeros((labels.size(0), n_way))
        counts.scatter_add_(1, labels, ones)
    return counts


def prototypes_from(embeddings, labels, n_way):
    b, _, d = embeddings.shape
    counts = class_counts(labels, n_way, embeddings.dtype).unsqueeze(-1)
    sums = embeddings.new_zeros((b, n_way, d))
    index = labels.unsqueeze(-1).expand_as(embeddings)
    sums = sums.scatter_add(1, index, embeddings)
    return sums / counts.clamp(min=1)


class ProtoLearner(nn.Module):
    def __init__(self, n_way):
        super().__init__()
        self.n_way = n_way
        self.encoder = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 8))

    def episode_loss(self, xs, ys, xq, yq):
        protos = prototypes_from(self.encoder(xs), ys, self.n_way)
        q = self.encoder(xq)
        logits = -((q.unsqueeze(2) - protos.unsqueeze(1)) ** 2).sum(-1)
        return F.cross_entropy(logits.flatten(0, 1), yq.flatten())


n_way, shots = 3, 4
centers = torch.randn(n_way, 6) * 2


def sample_task():
    ys = torch.arange(n_way).repeat_interleave(shots).unsqueeze(0)
    yq = ys.clone()
    xs = centers[ys] + 0.5 * torch.randn(1, n_way * shots, 6)
    xq = centers[yq] + 0.5 * torch.randn(1, n_way * shots, 6)
    return xs, ys, xq, yq


learner = ProtoLearner(n_way)
opt = torch.optim.Adam(learner.parameters(), lr=1e-2)
task = sample_task()

# reference prototypes without the no_grad helper
xs, ys, xq, yq = task
loss = learner.episode_loss(*task)
loss.backward()
ref_emb = learner.encoder(xs)[0]
ref_protos = torch.stack([ref_emb[ys[0] == c].mean(0) for c in range(n_way)])
assert torch.allclose(ref_protos, prototypes_from(learner.encoder(xs), ys, n_way)[0], atol=1e-6)
for p in learner.parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0

first = loss.item()
for _ in range(60):
    opt.zero_grad()
    l = learner.episode_loss(*task)
    l.backward()
    opt.step()
assert l.item() < 0.5 * first, (first, l.item())
print("ok: no_grad only around label counts, encoder trains", first, l.item())
