"""
expect: GL002 losses.py:10, GL003 losses.py:11
dynamic: confirm
source: none, invented

A small learning-to-rank script: a scorer MLP produces a score per document, and a helper in losses.py
computes a per-query squared error. The helper collects each query's error with float(), rebuilds the loss
as a brand-new tensor from those Python numbers, and then sets requires_grad = True on it because backward()
otherwise raised "element 0 of tensors does not require grad". The rebuilt tensor is a leaf with no history,
so the caller's backward() succeeds but never reaches the scorer: its parameters keep .grad None and the
weights do not move after several optimizer steps. The fixed helper keeps the per-query errors as tensors
and stacks them, and the asserts show the scorer's weights then change and its loss falls.
"""
import torch
import torch.nn as nn

from losses import listwise_score_loss, listwise_score_loss_fixed

torch.manual_seed(0)
torch.set_num_threads(1)


def make_queries(n_queries=6, docs=5, feats=8):
    feats_list, rel_list = [], []
    for _ in range(n_queries):
        x = torch.randn(docs, feats)
        rel = (x[:, 0] > 0).float() * 2.0 + (x[:, 1] > 0).float()
        feats_list.append(x)
        rel_list.append(rel)
    return feats_list, rel_list


def fit(loss_fn, steps=20):
    scorer = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.SGD(scorer.parameters(), lr=0.05)
    queries, relevance = make_queries()
    before = scorer[0].weight.detach().clone()
    losses = []
    for _ in range(steps):
        scores = [scorer(q).squeeze(-1) for q in queries]
        loss = loss_fn(scores, relevance)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return scorer, before, losses


if __name__ == "__main__":
    scorer, before, losses = fit(listwise_score_loss)
    assert scorer[0].weight.grad is None
    assert torch.equal(scorer[0].weight, before)

    scorer, before, losses = fit(listwise_score_loss_fixed)
    assert scorer[0].weight.grad is not None
    assert not torch.equal(scorer[0].weight, before)
    assert losses[-1] < losses[0]
    print("ranking loss check ok")
