"""
expect: GL002 corr_loss.py:12
dynamic: confirm
source: https://github.com/TomerRonen34/treeboost_autograd/issues/1

A user wrote a Spearman-correlation loss for a boosted regressor and it did not
work; the maintainer traced it to `ypred_th = torch.tensor(ypred.reshape(...),
requires_grad=True)`: the loss is computed on a brand-new leaf, so the original
predictions get no gradient. This program keeps that objective in corr_loss.py
(rebuilt from .tolist() into torch.tensor) and fits a linear scorer with it. The
asserts show the scorer's weight and bias get no gradient (the new leaf does) and
do not move after optimizer steps, while the same objective on the predictions
themselves trains the scorer.
"""
import torch
import torch.nn as nn

from corr_loss import spearman_objective, soft_rank

torch.manual_seed(0)
x = torch.randn(40, 5)
ytrue = x @ torch.tensor([1.0, -2.0, 0.5, 0.0, 1.5]) + 0.1 * torch.randn(40)

scorer = nn.Linear(5, 1)
opt = torch.optim.SGD(scorer.parameters(), lr=0.5)
w0 = scorer.weight.detach().clone()
for _ in range(5):
    opt.zero_grad()
    loss = spearman_objective(scorer(x).squeeze(-1), ytrue)
    loss.backward()
    assert scorer.weight.grad is None and scorer.bias.grad is None
    opt.step()
assert torch.equal(w0, scorer.weight)


def objective_on_preds(ypred, ytrue):
    rp, rt = soft_rank(ypred), soft_rank(ytrue)
    rp, rt = rp - rp.mean(), rt - rt.mean()
    return 1.0 - (rp * rt).sum() / (rp.norm() * rt.norm() + 1e-8)


ref = nn.Linear(5, 1)
ref_opt = torch.optim.SGD(ref.parameters(), lr=0.5)
first = None
for _ in range(30):
    ref_opt.zero_grad()
    l = objective_on_preds(ref(x).squeeze(-1), ytrue)
    first = l.item() if first is None else first
    l.backward()
    ref_opt.step()
assert ref.weight.grad is not None and l.item() < first
print("rebuilt objective left scorer unchanged; direct objective:", first, "->", l.item())
