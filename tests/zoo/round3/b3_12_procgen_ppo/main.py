"""expect: GL002 63
dynamic: confirm
source: https://github.com/Kostis-S-Z/exploring_meta/issues/16

In the Procgen PPO/A2C experiments of exploring_meta the sampler stores values and
log-probabilities as NumPy arrays, and the loss is rebuilt from that storage.  backward()
then failed with "element 0 of tensors does not require grad", which was silenced with
loss.requires_grad = True: the run no longer crashes but the policy is never updated.
"""
import numpy as np
import torch
import torch.nn as nn

from sampler import Sampler, ToyVecEnv


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh())
        self.actor = nn.Linear(hidden, n_actions)
        self.critic = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.body(obs)
        return torch.distributions.Categorical(logits=self.actor(h)), self.critic(h).squeeze(-1)

    def step(self, obs):
        mass, value = self(obs)
        action = mass.sample()
        return action, {"value": value, "log_prob": mass.log_prob(action), "mass": mass}


def compute_adv_ret(samples, gamma, tau):
    rewards, values, dones = samples["rewards"], samples["values"], samples["dones"]
    advantages = np.zeros_like(rewards)
    last = 0.0
    for t in reversed(range(len(rewards))):
        next_value = values[t + 1] if t + 1 < len(rewards) else values[t]
        delta = rewards[t] + gamma * next_value * (1.0 - dones[t]) - values[t]
        advantages[t] = last = delta + gamma * tau * (1.0 - dones[t]) * last
    return advantages, advantages + values


def compute_a2c_loss(samples):
    log_probs = torch.from_numpy(samples["log_prob"])
    values = torch.from_numpy(samples["values"])
    advantages = torch.from_numpy(samples["advantages"])
    returns = torch.from_numpy(samples["returns"])
    policy_loss = -(log_probs * advantages).mean()
    value_loss = (returns - values).pow(2).mean()
    return policy_loss, value_loss


def train(policy, optimiser, env, n_iters=3, value_l_weight=0.5):
    for _ in range(n_iters):
        sampler = Sampler(env=env, model=policy, num_steps=16)
        samples = sampler.run()
        samples["advantages"], samples["returns"] = compute_adv_ret(samples, 0.99, 0.95)
        policy_loss, value_loss = compute_a2c_loss(samples)
        loss = policy_loss + value_l_weight * value_loss
        optimiser.zero_grad()
        loss.requires_grad = True
        loss.backward()
        torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
        optimiser.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    env = ToyVecEnv(num_envs=4, obs_dim=8, n_actions=3)
    policy = ActorCritic(8, 3)
    optimiser = torch.optim.Adam(policy.parameters(), lr=1e-2)
    before = [p.detach().clone() for p in policy.parameters()]
    train(policy, optimiser, env)
    assert all(p.grad is None for p in policy.parameters())
    assert all(torch.equal(a, b) for a, b in zip(before, policy.parameters()))
    print("actor-critic parameters never change")
