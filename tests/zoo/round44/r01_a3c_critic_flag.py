"""
expect: GL001 92, GL003 93
dynamic: confirm
source: https://github.com/kishan-chakraborty/Learning-RL/blob/58c10cf9568f0aec49d89e4b8a09767b86afab31/PolicyGradient/a3c.py

An A3C-style worker with a shared trunk, an actor head and a critic head. The
actor loss weights log-probabilities by detached advantages, which is right.
The critic loss, however, is built from the same detached advantages, so it
has no grad_fn and backward() complains that element 0 does not require grad.
The worker then sets critic_loss.requires_grad = True: the error is gone, the
loss turns into a new leaf, and backward() stops at that leaf. The critic head
never receives a gradient and never moves, while the worker keeps syncing the
untrained critic into the global network. The asserts show the critic head
has grad None after the critic backward, is bit-identical to its initial
value after training, and that a critic loss built from the attached
advantages does train it.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim import Adam


class SharedActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=32):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(),
                                   nn.Linear(hidden, hidden), nn.ReLU())
        self.policy_head = nn.Linear(hidden, n_actions)
        self.value_head = nn.Linear(hidden, 1)

    def forward(self, obs):
        z = self.trunk(obs)
        return F.softmax(self.policy_head(z), dim=-1), self.value_head(z)


class ToyEnv:
    """Random linear dynamics; reward favours action 0 when obs[0] > 0."""

    def __init__(self, obs_dim=6, seed=0):
        self.g = torch.Generator().manual_seed(seed)
        self.obs_dim = obs_dim
        self.state = torch.randn(obs_dim, generator=self.g)

    def step(self, action):
        reward = 1.0 if (action == 0) == bool(self.state[0] > 0) else -0.2
        self.state = 0.8 * self.state + 0.3 * torch.randn(self.obs_dim, generator=self.g)
        return self.state.clone(), reward


def discounted_returns(rewards, gamma, bootstrap):
    out, running = [], bootstrap
    for r in reversed(rewards):
        running = r + gamma * running
        out.insert(0, running)
    return out


def worker_update(local_net, global_net, env, opt_actor, opt_critic, n_steps=20, gamma=0.95,
                  fixed=False):
    log_probs, values, rewards = [], [], []
    obs = env.state.clone()
    for _ in range(n_steps):
        probs, value = local_net(obs)
        action = torch.multinomial(probs, 1).item()
        obs, reward = env.step(action)
        log_probs.append(torch.log(probs[action]))
        values.append(value)
        rewards.append(reward)

    with torch.no_grad():
        _, last_value = local_net(obs)
    returns = torch.stack(discounted_returns(rewards, gamma, last_value.squeeze(-1)))
    advantages = returns - torch.stack(values).squeeze(-1)

    entropy = -(probs * torch.log(probs)).sum()
    actor_loss = -(torch.stack(log_probs) * advantages.detach()).sum() - 0.001 * entropy

    if fixed:
        critic_loss = advantages.pow(2).sum()
        opt_actor.zero_grad()
        (actor_loss + 0.5 * critic_loss).backward()
        critic_grad = local_net.value_head.weight.grad.clone()
        opt_actor.step()
    else:
        opt_actor.zero_grad()
        actor_loss.backward()
        opt_actor.step()

        critic_loss = torch.sum(advantages.detach() ** 2)
        critic_loss.requires_grad = True
        opt_critic.zero_grad()
        critic_loss.backward()
        critic_grad = local_net.value_head.weight.grad
        opt_critic.step()

    global_net.load_state_dict(local_net.state_dict())
    return critic_grad


def train(fixed, episodes=15):
    torch.manual_seed(0)
    global_net = SharedActorCritic(6, 2)
    local_net = SharedActorCritic(6, 2)
    local_net.load_state_dict(global_net.state_dict())
    opt_actor = Adam(local_net.parameters(), lr=1e-2)
    opt_critic = Adam(local_net.parameters(), lr=1e-2)
    env = ToyEnv()
    v0 = copy.deepcopy(local_net.value_head.state_dict())
    grads = [worker_update(local_net, global_net, env, opt_actor, opt_critic, fixed=fixed)
             for _ in range(episodes)]
    moved = not torch.equal(v0["weight"], global_net.value_head.weight)
    return grads, moved


if __name__ == "__main__":
    torch.set_num_threads(1)

    grads, moved = train(fixed=False)
    assert all(g is None for g in grads), "critic head should get no gradient"
    assert not moved, "critic head of the global net should never change"

    grads_ok, moved_ok = train(fixed=True)
    assert all(g is not None and g.abs().sum() > 0 for g in grads_ok)
    assert moved_ok
    print("flagged critic loss: critic head untouched; attached critic loss: critic head trained")
