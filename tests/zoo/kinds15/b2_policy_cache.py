"""
expect: GL001 29
dynamic: confirm
source: kind B

An actor-critic agent records each action's log-probability in a dict on `self` while acting, cut
from the graph, and its learn method builds the policy-gradient term from those stored values,
which is the policy network's only path into the loss (the value term reaches only the critic).
The asserts show the policy's .grad stays None and its weights never change while the critic
trains, and a fixed agent that keeps the live log-probabilities trains the policy.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(4)


class ActorCriticAgent:
    def __init__(self, obs_dim=5, n_actions=3):
        self.policy = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh(), nn.Linear(16, n_actions))
        self.critic = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh(), nn.Linear(16, 1))
        self.opt = torch.optim.Adam([*self.policy.parameters(), *self.critic.parameters()], lr=1e-2)
        self.rollout = {"logp": [], "obs": [], "reward": []}

    def act(self, obs, reward):
        dist = torch.distributions.Categorical(logits=self.policy(obs))
        action = dist.sample()
        self.rollout["logp"].append(dist.log_prob(action).detach())
        self.rollout["obs"].append(obs)
        self.rollout["reward"].append(reward)
        return action

    def learn(self):
        obs = torch.stack(self.rollout["obs"])
        returns = torch.tensor(self.rollout["reward"])
        values = self.critic(obs).squeeze(-1)
        advantage = (returns - values).detach()
        logp = torch.stack(self.rollout["logp"])
        loss = -(logp * advantage).mean() + F.mse_loss(values, returns)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.rollout = {"logp": [], "obs": [], "reward": []}


class ActorCriticAgentV2(ActorCriticAgent):
    def act(self, obs, reward):
        dist = torch.distributions.Categorical(logits=self.policy(obs))
        action = dist.sample()
        self.rollout["logp"].append(dist.log_prob(action))
        self.rollout["obs"].append(obs)
        self.rollout["reward"].append(reward)
        return action


observations = torch.randn(10, 5)
rewards = torch.randn(10).tolist()

agent = ActorCriticAgent()
p0 = agent.policy[0].weight.detach().clone()
c0 = agent.critic[0].weight.detach().clone()
for obs, r in zip(observations, rewards):
    agent.act(obs, r)
agent.learn()
assert agent.policy[0].weight.grad is None
assert torch.equal(p0, agent.policy[0].weight.detach())
assert not torch.equal(c0, agent.critic[0].weight.detach())
print("buggy agent: policy never receives gradient, critic trains")

fixed = ActorCriticAgentV2()
q0 = fixed.policy[0].weight.detach().clone()
for obs, r in zip(observations, rewards):
    fixed.act(obs, r)
fixed.learn()
assert fixed.policy[0].weight.grad is not None
assert not torch.equal(q0, fixed.policy[0].weight.detach())
print("ok")
