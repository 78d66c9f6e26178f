"""
expect: none
dynamic: dismiss
source: https://github.com/uma-pi1/kge/pull/119

LibKGE's lookup embedder normalises entity embeddings for TransE-style models with a
pre-batch hook that rewrites self._embeddings.weight.data under torch.no_grad(). A
.data write into a trainable weight looks like the in-place-on-saved-tensor pattern,
but here it runs before the batch's forward pass, so no recorded op has saved the old
values yet, and the optimiser only ever sees gradients of the normalised table. The
asserts check that entity norms are 1 at the start of every batch, that the gradient
matches a reference computed on an explicitly normalised copy, and that the margin
loss goes down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
N_ENT, N_REL, DIM = 50, 5, 16


class LookupEmbedder(nn.Module):
    def __init__(self, n, dim, normalize_p=2.0):
        super().__init__()
        self._embeddings = nn.Embedding(n, dim)
        self.normalize_p = normalize_p

    def normalize_embeddings(self, job=None):
        with torch.no_grad():
            self._embeddings.weight.data = F.normalize(
                self._embeddings.weight.data, p=self.normalize_p, dim=-1)

    def embed(self, idx):
        return self._embeddings(idx)


class TransE(nn.Module):
    def __init__(self):
        super().__init__()
        self.entities = LookupEmbedder(N_ENT, DIM)
        self.relations = nn.Embedding(N_REL, DIM)

    def score(self, s, p, o):
        return -(self.entities.embed(s) + self.relations(p) - self.entities.embed(o)).norm(dim=-1)


class TrainingJob:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.05)
        self.pre_batch_hooks = [model.entities.normalize_embeddings]

    def run_batch(self, s, p, o, o_neg):
        for hook in self.pre_batch_hooks:
            hook(self)
        norms = self.model.entities._embeddings.weight.norm(dim=-1)
        loss = F.relu(1.0 - self.model.score(s, p, o) + self.model.score(s, p, o_neg)).mean()
        self.opt.zero_grad()
        loss.backward()
        grad = self.model.entities._embeddings.weight.grad.clone()
        self.opt.step()
        return loss.item(), norms, grad


triples = torch.stack([torch.randint(0, N_ENT, (200,)), torch.randint(0, N_REL, (200,)),
                       torch.randint(0, N_ENT, (200,))], 1)
model = TransE()
job = TrainingJob(model)
losses = []
for epoch in range(15):
    s, p, o = triples.t()
    o_neg = torch.randint(0, N_ENT, (200,))
    if epoch == 14:
        ref_w = F.normalize(model.entities._embeddings.weight.detach(), dim=-1).requires_grad_(True)
        ref_s = -(F.embedding(s, ref_w) + model.relations(p) - F.embedding(o, ref_w)).norm(dim=-1)
        ref_n = -(F.embedding(s, ref_w) + model.relations(p) - F.embedding(o_neg, ref_w)).norm(dim=-1)
        ref_grad = torch.autograd.grad(F.relu(1.0 - ref_s + ref_n).mean(), ref_w)[0]
    loss, norms, grad = job.run_batch(s, p, o, o_neg)
    losses.append(loss)
    assert torch.allclose(norms, torch.ones(N_ENT), atol=1e-5)
assert torch.allclose(grad, ref_grad, atol=1e-6)
assert losses[-1] < losses[0]
print("ok: pre-batch .data renormalisation is safe; loss", round(losses[0], 3), "->", round(losses[-1], 3))
