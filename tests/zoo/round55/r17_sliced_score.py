"""
expect: none
dynamic: dismiss
source: https://github.com/ermongroup/sliced_score_matching/issues/3

Sliced score matching for a score network on 2-D data, in the form of the
sliced_score_estimation function quoted in the issue: the data batch is
duplicated for several random projections, made contiguous, and then switched on
with requires_grad_(True) so that the divergence term v^T (d s / d x) v can be
taken with autograd.grad(..., create_graph=True). The samples are plain data with
no history, so the switch is exactly what the estimator needs: it marks the point
at which the input-gradient is taken, while the score network's parameters keep
their own path through both loss terms. The asserts check that the score network
receives gradients from both terms, that dropping the switch makes autograd.grad
fail, that the loss falls, and that the learned score of a Gaussian matches the
analytic score -(x - mu) / sigma^2.
"""
import torch
import torch.nn as nn
from torch import autograd

torch.manual_seed(0)
torch.set_num_threads(1)

MU = torch.tensor([1.0, -2.0])
SIGMA = 0.7


def sliced_score_estimation(score_net, samples, n_particles=2):
    dup_samples = samples.unsqueeze(0).expand(n_particles, *samples.shape).contiguous().view(-1, *samples.shape[1:])
    dup_samples.requires_grad_(True)
    vectors = torch.randn_like(dup_samples)
    vectors = vectors / torch.norm(vectors, dim=-1, keepdim=True)

    grad1 = score_net(dup_samples)
    gradv = torch.sum(grad1 * vectors)
    loss1 = torch.sum(grad1 * vectors, dim=-1) ** 2 * 0.5
    grad2 = autograd.grad(gradv, dup_samples, create_graph=True)[0]
    loss2 = torch.sum(vectors * grad2, dim=-1)

    loss1 = loss1.view(n_particles, -1).mean(dim=0)
    loss2 = loss2.view(n_particles, -1).mean(dim=0)
    return (loss1 + loss2).mean(), loss1.mean(), loss2.mean()


score_net = nn.Sequential(nn.Linear(2, 64), nn.Softplus(), nn.Linear(64, 64), nn.Softplus(), nn.Linear(64, 2))
opt = torch.optim.Adam(score_net.parameters(), lr=1e-3)


def data(n=256):
    return MU + SIGMA * torch.randn(n, 2)


# both terms reach the parameters
_, l1, l2 = sliced_score_estimation(score_net, data())
g1 = autograd.grad(l1, list(score_net.parameters()), retain_graph=True, allow_unused=True)
g2 = autograd.grad(l2, list(score_net.parameters()), allow_unused=True)
assert any(g is not None and g.abs().sum() > 0 for g in g1)
assert any(g is not None and g.abs().sum() > 0 for g in g2)

# without the switch the divergence term cannot be taken
x = data()
try:
    autograd.grad(score_net(x).sum(), x, create_graph=True)
    failed = False
except RuntimeError:
    failed = True
assert failed

first = None
for step in range(1500):
    loss, _, _ = sliced_score_estimation(score_net, data())
    opt.zero_grad()
    loss.backward()
    opt.step()
    if first is None:
        first = loss.item()
assert loss.item() < first

with torch.no_grad():
    probe = data(512)
    learned = score_net(probe)
    true = -(probe - MU) / SIGMA ** 2
    rel_err = ((learned - true).norm(dim=1) / true.norm(dim=1).clamp_min(1e-3)).median().item()
assert rel_err < 0.3, rel_err
print(f"median relative score error: {rel_err:.3f}")
