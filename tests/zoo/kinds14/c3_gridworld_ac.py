"""
expect: none
dynamic: dismiss
source: kind C

An actor-critic agent for a grid world with the same layout as a buggy one: `losses`
returns (policy_loss, value_loss), called as `self.losses(*batch)`, and the critic optimizer
steps between the two backward calls. Here the advantage is detached, so the policy loss
graph shares no network with the critic; the asserts show no error and both nets' weights change.
"""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class GridAgent:
    def __init__(self, obs_dim, n_actions):
        self.policy = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, n_actions))
        self.value = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, 1))
        self.pi_opt = torch.optim.Adam(self.policy.parameters(), lr=1e-2)
        self.v_opt = torch.optim.Adam(self.value.parameters(), lr=1e-2)

    def losses(self, obs, actions, returns):
        values = self.value(obs).squeeze(-1)
        advantage = (returns - values).detach()
        logp = Categorical(logits=self.policy(obs)).log_prob(actions)
        policy_loss = -(logp * advantage).mean()
        value_loss = (returns - values).pow(2).mean()
        return policy_loss, value_loss

    def update(self, batch):
        policy_loss, value_loss = self.losses(*batch)
        self.v_opt.zero_grad()
        value_loss.backward()
        self.v_opt.step()
        self.pi_opt.zero_grad()
        policy_loss.backward()
        self.pi_opt.step()


torch.manual_seed(0)
agent = GridAgent(25, 4)
batch = (torch.randn(16, 25), torch.randint(0, 4, (16,)), torch.randn(16))
pi_before = [p.detach().clone() for p in agent.policy.parameters()]
v_before = [p.detach().clone() for p in agent.value.parameters()]
for _ in range(2):
    agent.update(batch)
assert all(not torch.equal(p, b) for p, b in zip(agent.policy.parameters(), pi_before))
assert all(not torch.equal(p, b) for p, b in zip(agent.value.parameters(), v_before))
print("c3 ok")
