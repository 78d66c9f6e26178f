"""
expect: GL003 54
dynamic: confirm
source: kinds check 53, kind 3

PPO-style critic update on a cart-pole-like rollout: state values are taken
under torch.no_grad(), GAE advantages are computed in NumPy and rebuilt with
torch.tensor, and the critic loss built from those no_grad values is switched
on with requires_grad = True so backward "works" while the critic never moves.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)


class Critic(nn.Module):
    def __init__(self, obs_dim):
        super().__init__()
        self.v = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, obs):
        return self.v(obs)


def gae(rewards, values, dones, gamma=0.99, lam=0.95):
    adv = np.zeros_like(rewards)
    last = 0.0
    for t in reversed(range(len(rewards))):
        nxt = values[t + 1] if t + 1 < len(values) else 0.0
        delta = rewards[t] + gamma * nxt * (1 - dones[t]) - values[t]
        last = delta + gamma * lam * (1 - dones[t]) * last
        adv[t] = last
    return adv


def main():
    T = 64
    obs = torch.randn(T, 4)
    rewards = np.random.rand(T).astype(np.float32)
    dones = (np.random.rand(T) < 0.05).astype(np.float32)
    critic = Critic(4)
    opt = torch.optim.Adam(critic.parameters(), lr=1e-2)
    before = [p.detach().clone() for p in critic.parameters()]

    with torch.no_grad():
        values = critic(obs).squeeze(-1)
        advantages = torch.tensor(gae(rewards, values.numpy(), dones))
        returns = advantages + values

    critic_loss = ((values - returns) ** 2).mean()
    critic_loss.requires_grad = True
    opt.zero_grad()
    critic_loss.backward()
    opt.step()

    grads = [p.grad for p in critic.parameters()]
    moved = any(not torch.equal(b, p) for b, p in zip(before, critic.parameters()))
    EXPECT_TRAINS = False
    if EXPECT_TRAINS:
        assert all(g is not None for g in grads) and moved
    else:
        assert all(g is None for g in grads) and not moved
    print("ok: critic moved =", moved)


if __name__ == "__main__":
    main()
