"""
expect: none
dynamic: dismiss
source: kinds check 52, kind 1

A document scorer that converts its embeddings to NumPy only to record a
norm-based ranking as a side output (torch.tensor of the argsort order); the
score head runs on the attached embedding, so the embedding layers train.
"""
import torch
import torch.nn.functional as F
from doc_ranker import DocRanker

torch.manual_seed(1)
model = DocRanker()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
docs = torch.randn(20, 40)
rel = torch.rand(20)
w0 = model.embed[0].weight.detach().clone()
for _ in range(3):
    opt.zero_grad()
    loss = F.mse_loss(model(docs), rel)
    loss.backward()
    opt.step()
assert model.embed[0].weight.grad is not None
assert not torch.equal(w0, model.embed[0].weight)
assert model.last_ranking.shape == (20,)
print("ok: embedding trains, ranking is only a side output")
