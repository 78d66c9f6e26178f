"""
expect: GL001 masked_ppo.py:30
dynamic: confirm
source: https://github.com/thu-ml/tianshou/issues/742

The report: a user subclassed a PPO policy to add action masking and wrapped
the probability-ratio computation in `torch.no_grad()`. The clipped surrogate
is then a constant with respect to the actor; only the value loss has a graph,
so `loss.backward()` runs, the critic trains, and the actor silently never
moves. The asserts show the actor gets no gradient and keeps its weights after
`learn`, while the same surrogate with the ratio kept in the graph gives the
actor a non-zero gradient.
"""
import torch

from masked_ppo import ActorCritic, MaskedPPO

torch.manual_seed(0)
torch.set_num_threads(1)

net = ActorCritic()
ppo = MaskedPPO(net)

# a fake rollout
obs = torch.randn(64, 6)
mask = torch.rand(64, 4) > 0.2
mask[:, 0] = True
with torch.no_grad():
    d0 = ppo.dist(obs, mask)
    act = d0.sample()
    logp_old = d0.log_prob(act)
adv, ret = torch.randn(64), torch.randn(64)
batch = (obs, mask, act, logp_old, adv, ret)

actor_before = [p.detach().clone() for p in net.actor.parameters()]
critic_before = [p.detach().clone() for p in net.critic.parameters()]
ppo.learn(batch)

# Bug: the actor never received a gradient; the critic did train.
assert all(p.grad is None for p in net.actor.parameters())
assert all(torch.equal(a, p) for a, p in zip(actor_before, net.actor.parameters()))
assert any(not torch.equal(a, p) for a, p in zip(critic_before, net.critic.parameters()))

# Fixed variant: ratio in the graph -> actor gradient is non-zero.
d = ppo.dist(obs, mask)
ratio = (d.log_prob(act) - logp_old).exp()
a = (adv - adv.mean()) / (adv.std() + 1e-8)
surr = -torch.min(ratio * a, ratio.clamp(0.8, 1.2) * a).mean()
g = torch.autograd.grad(surr, list(net.actor.parameters()))
assert sum(x.abs().sum().item() for x in g) > 1e-4
print("ok: actor frozen by no_grad ratio; fixed grad", sum(x.abs().sum().item() for x in g))
