"""
expect: GL001 35
dynamic: confirm
source: kinds check 20, kind 5 (written for this check)

An actor-critic update adds a value-regression term
`vf_coef * (value.detach() - returns).pow(2).mean()` to the policy loss, but the
detach cuts the critic head out of the only term meant to train it. The asserts
show the value head gets no gradient while the same term without the detach
would give it a nonzero one.
"""
import torch
import torch.nn as nn

torch.manual_seed(9)


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=8, n_actions=4):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh())
        self.pi = nn.Linear(32, n_actions)
        self.v = nn.Linear(32, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.pi(h), self.v(h).squeeze(-1)


def a2c_loss(net, obs, actions, returns, vf_coef=0.5):
    logits, value = net(obs)
    logp = torch.log_softmax(logits, -1).gather(1, actions[:, None]).squeeze(1)
    adv = (returns - value).detach()
    policy_loss = -(logp * adv).mean()
    value_loss = vf_coef * (value.detach() - returns).pow(2).mean()
    return policy_loss + value_loss


net = ActorCritic()
obs = torch.randn(64, 8)
actions = torch.randint(0, 4, (64,))
returns = torch.randn(64)
a2c_loss(net, obs, actions, returns).backward()
assert net.v.weight.grad is None, "critic should be starved"

h = net.body(obs).detach()
intended = (net.v(h).squeeze(-1) - returns).pow(2).mean()
(g,) = torch.autograd.grad(intended, net.v.weight)
assert g.abs().sum() > 0
print("ok: value head got no gradient from its own regression term")
