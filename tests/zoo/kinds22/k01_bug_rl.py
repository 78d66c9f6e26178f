"""
expect: GL002 36
dynamic: confirm
source: kinds check 22, kind 1 (written for this check)

The actor-critic loss adds the critic's regression term back as float(value_loss),
so the value head never receives a gradient. The asserts show the value head's grad
is None after backward, while a variant that keeps the tensor term does train it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=6, n_actions=3):
        super().__init__()
        self.torso = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh())
        self.pi = nn.Linear(32, n_actions)
        self.v = nn.Linear(32, 1)

    def forward(self, obs):
        h = self.torso(obs)
        return self.pi(h), self.v(h).squeeze(-1)


def a2c_terms(model, obs, actions, returns):
    logits, values = model(obs)
    logp = F.log_softmax(logits, -1).gather(1, actions[:, None]).squeeze(1)
    adv = (returns - values).detach()
    return -(logp * adv).mean(), F.mse_loss(values, returns)


def a2c_loss(model, obs, actions, returns, value_coef=0.5):
    policy_loss, value_loss = a2c_terms(model, obs, actions, returns)
    loss = policy_loss + value_coef * float(value_loss)
    return loss


torch.manual_seed(0)
obs = torch.randn(16, 6)
actions = torch.randint(0, 3, (16,))
returns = torch.randn(16)

agent = ActorCritic()
a2c_loss(agent, obs, actions, returns).backward()
assert agent.v.weight.grad is None, "critic should be starved"
assert agent.pi.weight.grad.abs().sum() > 0

fixed = ActorCritic()
pl, vl = a2c_terms(fixed, obs, actions, returns)
(pl + 0.5 * vl).backward()
assert fixed.v.weight.grad.abs().sum() > 0
print("ok: value head starved by float()")
