"""
expect: none
dynamic: dismiss
source: https://github.com/ikostrikov/pytorch-trpo/issues/13

The issue points out that get_kl() copies the policy's mean, log_std and std with
the graph cut off and computes the KL between the originals and those copies,
"which is obviously zero all the time", and asks whether that is a bug. It is
intended: the cut copy is the fixed old policy, and TRPO only needs the
curvature of that KL at the current parameters. This program rebuilds get_kl and
the Fisher-vector product in trpo_utils.py. The asserts show the KL value and
its first derivative are zero, the Hessian-vector product is not, and a natural
gradient step built from it changes the policy.
"""
import torch
import torch.nn as nn

from trpo_utils import get_kl, fisher_vector_product


class GaussianPolicy(nn.Module):
    def __init__(self, s_dim=4, a_dim=2):
        super().__init__()
        self.mu = nn.Sequential(nn.Linear(s_dim, 16), nn.Tanh(), nn.Linear(16, a_dim))
        self.log_std = nn.Parameter(torch.zeros(1, a_dim))

    def forward(self, s):
        mean = self.mu(s)
        return mean, self.log_std.expand_as(mean)


torch.manual_seed(0)
policy = GaussianPolicy()
states = torch.randn(32, 4)
params = list(policy.parameters())

kl = get_kl(policy, states).mean()
assert kl.abs().item() < 1e-7
first = torch.autograd.grad(kl, params, allow_unused=True)
assert all(g is None or g.abs().max() < 1e-6 for g in first)

n = sum(p.numel() for p in params)
v = torch.randn(n)
fvp = fisher_vector_product(policy, states, v, damping=0.0)
assert fvp.abs().max() > 1e-3

# One natural-gradient style step along the surrogate gradient.
actions, adv = torch.randn(32, 2), torch.randn(32)
mean, log_std = policy(states)
logp = (-(actions - mean).pow(2) / (2 * log_std.exp().pow(2)) - log_std).sum(1)
surr = (logp * adv).mean()
g = torch.cat([x.reshape(-1) for x in torch.autograd.grad(surr, params)])
step_dir = g / fisher_vector_product(policy, states, g).norm()
before = torch.cat([p.detach().reshape(-1) for p in params])
with torch.no_grad():
    offset = 0
    for p in params:
        k = p.numel()
        p.add_(0.01 * step_dir[offset:offset + k].view_as(p))
        offset += k
after = torch.cat([p.detach().reshape(-1) for p in params])
assert not torch.equal(before, after)
print("KL:", kl.item(), "|Fv|:", fvp.norm().item())
