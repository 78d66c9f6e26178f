"""expect: GL002 25
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/1277

A listwise ranking step scores each candidate document one at a time in a Python loop,
then builds the score vector with torch.FloatTensor(...) so it can be divided by a learned
temperature and fed to a softmax cross-entropy. torch.FloatTensor copies the per-sample
scores into a new leaf, so only the temperature parameter is connected to the loss:
backward() works and the temperature moves, but the scorer network is never updated.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
scorer = nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 1))
log_temp = nn.Parameter(torch.zeros(()))
optim = torch.optim.Adam(list(scorer.parameters()) + [log_temp], lr=0.05)


def listwise_step(query_docs, relevant_idx):
    scores = []
    for doc in query_docs:
        scores.append(scorer(doc).squeeze())
    score_vec = torch.FloatTensor(scores)
    logits = score_vec / log_temp.exp()
    return F.cross_entropy(logits.unsqueeze(0), torch.tensor([relevant_idx]))


w0 = scorer[0].weight.detach().clone()
t0 = log_temp.detach().clone()
for step in range(5):
    docs = torch.randn(6, 5)
    optim.zero_grad()
    loss = listwise_step(docs, relevant_idx=step % 6)
    loss.backward()
    optim.step()
    print("step", step, "loss", round(loss.item(), 4))

assert log_temp.grad is not None and not torch.equal(t0, log_temp.detach())
assert scorer[0].weight.grad is None, "scorer should not have a gradient"
assert torch.equal(w0, scorer[0].weight)
print("temperature learned, scorer frozen by the copy")
