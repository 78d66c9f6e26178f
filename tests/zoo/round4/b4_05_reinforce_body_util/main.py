"""expect: GL002 policy_util.py:20
dynamic: confirm
source: https://github.com/kengz/SLM-Lab/pull/133

REINFORCE agent split the way SLM-Lab splits it: the agent's Body records the
log-probability and entropy of every action, and helpers in policy_util.py
batch them at training time. The log-prob helper batches the per-step tensors
with `torch.tensor(body.log_probs)`, which copies their values into a brand-new
tensor with no grad_fn. The policy loss -(log_prob * return) is then a constant
for the network; only the entropy bonus (batched with torch.stack) still reaches
the parameters, so the computed gradient does not depend on the returns at all
and the agent cannot learn from reward.
"""
import torch
import torch.nn as nn
from torch.distributions import Categorical

import policy_util


class Body:
    def __init__(self):
        self.clear()

    def clear(self):
        self.log_probs, self.entropies, self.rewards = [], [], []


class Reinforce:
    def __init__(self, obs_dim=4, n_actions=3, gamma=0.99, entropy_coef=0.01):
        self.net = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, n_actions))
        self.optim = torch.optim.Adam(self.net.parameters(), lr=1e-2)
        self.body = Body()
        self.gamma, self.entropy_coef = gamma, entropy_coef

    def act(self, obs):
        dist = Categorical(logits=self.net(obs))
        action = dist.sample()
        self.body.log_probs.append(dist.log_prob(action))
        self.body.entropies.append(dist.entropy())
        return action.item()

    def calc_policy_loss(self):
        returns = policy_util.normalize(policy_util.discounted_returns(self.body.rewards, self.gamma))
        log_probs = policy_util.gather_log_probs(self.body)
        entropy = policy_util.gather_entropies(self.body)
        return -(log_probs * returns).mean() - self.entropy_coef * entropy.mean()

    def train(self):
        loss = self.calc_policy_loss()
        self.optim.zero_grad()
        loss.backward()
        self.optim.step()
        self.body.clear()


def run_episode(agent, obs_bank):
    for obs in obs_bank:
        a = agent.act(obs)
        agent.body.rewards.append(1.0 if a == 0 else 0.0)


def grads_of(agent):
    agent.optim.zero_grad()
    agent.calc_policy_loss().backward()
    return [p.grad.clone() for p in agent.net.parameters()]


def main():
    torch.manual_seed(0)
    agent = Reinforce()
    obs_bank = torch.randn(10, 4)

    torch.manual_seed(1)
    run_episode(agent, obs_bank)
    g_true = grads_of(agent)
    agent.body.clear()
    torch.manual_seed(1)
    run_episode(agent, obs_bank)
    agent.body.rewards = [float(i % 3) for i in range(len(agent.body.rewards))]
    g_other = grads_of(agent)
    agent.body.clear()
    assert all(torch.allclose(a, b) for a, b in zip(g_true, g_other)), "returns influence the update"

    for _ in range(3):
        run_episode(agent, obs_bank)
        agent.train()
    print("policy gradient is independent of the returns: log-probs were rebuilt")


if __name__ == "__main__":
    main()
