"""
expect: none
dynamic: dismiss
source: https://github.com/facebookresearch/XLM/issues/148

A reader of a cross-lingual language-model codebase asked why the product-key memory
layer finds its nearest keys inside `with torch.no_grad()`, fearing the keys would never
be updated. The maintainer explained that the no_grad part only picks the top-k indices;
the scores of the selected keys are recomputed afterwards with gradients, so the keys
do train. This program builds such a memory layer inside a small language-model block.
The asserts show the keys, values and query projection all receive gradients, that the
gradients equal those of a version without no_grad, and that the loss falls.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)


class HashingMemory(nn.Module):
    def __init__(self, d_in=16, k_dim=8, n_keys=32, v_dim=16, knn=4, search_no_grad=True):
        super().__init__()
        self.knn = knn
        self.search_no_grad = search_no_grad
        self.query_proj = nn.Linear(d_in, k_dim)
        self.keys = nn.Parameter(torch.randn(n_keys, k_dim) / k_dim ** 0.5)
        self.values = nn.EmbeddingBag(n_keys, v_dim, mode="sum")

    def _get_indices(self, query):
        with torch.no_grad():
            scores = query @ self.keys.T
            _, indices = scores.topk(self.knn, dim=1)
        return indices

    def _get_indices_with_grad(self, query):
        return (query @ self.keys.T).topk(self.knn, dim=1)[1]

    def forward(self, x):
        query = self.query_proj(x)
        if self.search_no_grad:
            indices = self._get_indices(query)
        else:
            indices = self._get_indices_with_grad(query)
        scores = (query.unsqueeze(1) * self.keys[indices]).sum(-1)
        weights = F.softmax(scores, dim=-1)
        return self.values(indices, per_sample_weights=weights)


class MemoryLM(nn.Module):
    def __init__(self, vocab=30, d=16, **kw):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.memory = HashingMemory(d_in=d, v_dim=d, **kw)
        self.out = nn.Linear(d, vocab)

    def forward(self, tokens):
        h = self.embed(tokens)
        return self.out(h + self.memory(h))


torch.manual_seed(0)
model = MemoryLM()
twin = copy.deepcopy(model)
twin.memory.search_no_grad = False
tokens = torch.randint(0, 30, (64,))
targets = (tokens * 7 + 3) % 30

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
opt_t = torch.optim.Adam(twin.parameters(), lr=1e-2)
history = []
for _ in range(40):
    loss = F.cross_entropy(model(tokens), targets)
    loss_t = F.cross_entropy(twin(tokens), targets)
    opt.zero_grad(); opt_t.zero_grad()
    loss.backward(); loss_t.backward()
    mem = model.memory
    assert mem.keys.grad is not None and mem.keys.grad.abs().sum() > 0
    assert mem.values.weight.grad is not None and mem.query_proj.weight.grad is not None
    for p, q in zip(model.parameters(), twin.parameters()):
        assert torch.allclose(p.grad, q.grad, atol=1e-6)
    opt.step(); opt_t.step()
    history.append(loss.item())

assert history[-1] < history[0]
print("p17 ok: no_grad only picks key indices; recomputed scores train the keys")
