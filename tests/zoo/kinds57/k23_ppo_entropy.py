"""
expect: GL002 54
dynamic: confirm
source: none, invented

A PPO agent for a small discrete gridworld-style task. The agent's `entropy_bonus` method returns
`float(dist.entropy().mean())`, and `policy_loss` subtracts `ent_coef * self.entropy_bonus(dist)` from
the clipped surrogate and returns the result, which `update` backpropagates. Converting the entropy to a
Python float keeps it in the printed loss but removes its gradient, so the entropy regulariser does
nothing. The asserts show that on a batch with all-zero advantages (where the only gradient should come
from the entropy term) the policy's gradients are exactly zero, while a version that keeps the entropy
as a tensor gives non-zero gradients, and that repeated updates on such batches raise the policy entropy
only in the tensor version.
"""
import warnings

import torch
import torch.nn as nn
from torch.distributions import Categorical

warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad=True to a scalar")
torch.manual_seed(0)
torch.set_num_threads(1)

OBS_DIM, N_ACTIONS = 6, 4


class PPOAgent:
    def __init__(self, clip=0.2, ent_coef=0.05, lr=3e-3):
        self.policy = nn.Sequential(nn.Linear(OBS_DIM, 64), nn.Tanh(), nn.Linear(64, N_ACTIONS))
        nn.init.normal_(self.policy[2].weight, std=1.0)
        self.value = nn.Sequential(nn.Linear(OBS_DIM, 64), nn.Tanh(), nn.Linear(64, 1))
        self.opt = torch.optim.Adam(list(self.policy.parameters()) + list(self.value.parameters()), lr=lr)
        self.clip, self.ent_coef = clip, ent_coef

    def dist(self, obs):
        return Categorical(logits=self.policy(obs))

    def policy_loss(self, obs, actions, old_logp, adv):
        dist = self.dist(obs)
        ratio = (dist.log_prob(actions) - old_logp).exp()
        surr = torch.min(ratio * adv, ratio.clamp(1 - self.clip, 1 + self.clip) * adv)
        return -surr.mean() - self.ent_coef * self.entropy_bonus(dist)

    def update(self, obs, actions, old_logp, adv, returns):
        loss = self.policy_loss(obs, actions, old_logp, adv)
        loss = loss + 0.5 * (self.value(obs).squeeze(-1) - returns).pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    def entropy_bonus(self, dist):
        return float(dist.entropy().mean())


class TensorEntropyAgent(PPOAgent):
    def entropy_bonus(self, dist):
        return dist.entropy().mean()


def rollout(agent, n=256):
    obs = torch.randn(n, OBS_DIM)
    with torch.no_grad():
        dist = agent.dist(obs)
        actions = dist.sample()
        old_logp = dist.log_prob(actions)
    returns = torch.randn(n)
    return obs, actions, old_logp, torch.zeros(n), returns


def mean_entropy(agent, obs):
    with torch.no_grad():
        return agent.dist(obs).entropy().mean().item()


if __name__ == "__main__":
    grads = {}
    for cls in (PPOAgent, TensorEntropyAgent):
        torch.manual_seed(0)
        agent = cls()
        batch = rollout(agent)
        agent.opt.zero_grad()
        agent.policy_loss(*batch[:4]).backward()
        grads[cls.__name__] = agent.policy[0].weight.grad.clone()
    assert grads["PPOAgent"].abs().sum() == 0
    assert grads["TensorEntropyAgent"].abs().sum() > 0

    entropy_gain = {}
    for cls in (PPOAgent, TensorEntropyAgent):
        torch.manual_seed(0)
        agent = cls()
        probe_obs = torch.randn(512, OBS_DIM)
        h0 = mean_entropy(agent, probe_obs)
        for _ in range(60):
            agent.update(*rollout(agent))
        entropy_gain[cls.__name__] = mean_entropy(agent, probe_obs) - h0
    assert abs(entropy_gain["PPOAgent"]) < 1e-6
    assert entropy_gain["TensorEntropyAgent"] > 0.1, entropy_gain
    print(f"entropy change: float bonus {entropy_gain['PPOAgent']:+.3f}, tensor bonus {entropy_gain['TensorEntropyAgent']:+.3f}")
