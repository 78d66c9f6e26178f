"""
expect: GL005 36
dynamic: confirm
source: kind C

An advantage actor-critic learner for a toy control task: `losses` returns (policy_loss,
value_loss) and is called as `self.losses(*batch)`; the policy loss uses the undetached
advantage, so its graph runs through the critic. `update` backpropagates the value loss,
steps the critic optimizer, and only then backpropagates the policy loss, which raises a
RuntimeError mentioning "inplace"; the asserts catch it and show the reordered update works.
"""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class A2CLearner:
    def __init__(self, obs_dim, n_actions):
        self.actor = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, n_actions))
        self.critic = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, 1))
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=1e-3)

    def losses(self, obs, actions, returns):
        values = self.critic(obs).squeeze(-1)
        advantage = returns - values
        logp = Categorical(logits=self.actor(obs)).log_prob(actions)
        policy_loss = -(logp * advantage).mean()
        value_loss = advantage.pow(2).mean()
        return policy_loss, value_loss

    def update(self, batch):
        policy_loss, value_loss = self.losses(*batch)
        self.critic_opt.zero_grad()
        value_loss.backward(retain_graph=True)
        self.critic_opt.step()
        self.actor_opt.zero_grad()
        policy_loss.backward()
        self.actor_opt.step()

    def update_fixed(self, batch):
        policy_loss, value_loss = self.losses(*batch)
        self.critic_opt.zero_grad()
        self.actor_opt.zero_grad()
        value_loss.backward(retain_graph=True)
        policy_loss.backward()
        self.critic_opt.step()
        self.actor_opt.step()

torch.manual_seed(0)
batch = (torch.randn(16, 4), torch.randint(0, 2, (16,)), torch.randn(16))

learner = A2CLearner(4, 2)
try:
    learner.update(batch)
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "inplace" in raised, raised

learner = A2CLearner(4, 2)
before = [p.detach().clone() for p in learner.actor.parameters()]
learner.update_fixed(batch)
assert all(not torch.equal(p, b) for p, b in zip(learner.actor.parameters(), before))
print("c1 ok")
