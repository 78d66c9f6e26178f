"""
expect: GL001 48
dynamic: confirm
source: kinds check 10, kind 10

DDPG on random transitions. The td_loss helper is meant to stop gradients at
the bootstrapped target but detaches the critic's own Q(s, a) instead, so the
critic loss only reaches the target networks. The actor loss does run through
the critic, yet only the actor optimizer steps after it, and the critic
optimizer always finds no gradient: the critic's weights never change.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

OBS_DIM, ACT_DIM = 5, 2


class Actor(nn.Module):
    def __init__(self, hidden=32, max_action=1.0):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS_DIM, hidden), nn.ReLU(),
                                 nn.Linear(hidden, ACT_DIM), nn.Tanh())
        self.max_action = max_action

    def forward(self, obs):
        return self.max_action * self.net(obs)


class Critic(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS_DIM + ACT_DIM, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 1))

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], dim=-1))


def td_loss(critic, critic_targ, actor_targ, batch, gamma=0.99):
    obs, act, rew, next_obs, done = batch
    next_q = critic_targ(next_obs, actor_targ(next_obs))
    target = rew + gamma * (1.0 - done) * next_q
    q = critic(obs, act).detach()
    return F.mse_loss(q, target)


@torch.no_grad()
def soft_update(target, source, tau=0.005):
    for tp, sp in zip(target.parameters(), source.parameters()):
        tp.lerp_(sp, tau)


def sample_batch(n=16):
    return (torch.randn(n, OBS_DIM), torch.rand(n, ACT_DIM) * 2 - 1,
            torch.randn(n, 1), torch.randn(n, OBS_DIM),
            (torch.rand(n, 1) < 0.1).float())


def main():
    actor, critic = Actor(), Critic()
    actor_targ, critic_targ = copy.deepcopy(actor), copy.deepcopy(critic)
    actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
    critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)

    critic_before = [p.detach().clone() for p in critic.parameters()]
    actor_before = [p.detach().clone() for p in actor.parameters()]
    for _ in range(5):
        batch = sample_batch()
        critic_loss = td_loss(critic, critic_targ, actor_targ, batch)
        critic_opt.zero_grad()
        critic_loss.backward()
        assert all(p.grad is None for p in critic.parameters())
        critic_opt.step()

        obs = batch[0]
        actor_loss = -critic(obs, actor(obs)).mean()
        actor_opt.zero_grad()
        actor_loss.backward()
        actor_opt.step()

        soft_update(critic_targ, critic)
        soft_update(actor_targ, actor)

    assert all(torch.equal(p, old) for p, old in zip(critic.parameters(), critic_before))
    assert all(not torch.equal(p, old) for p, old in zip(actor.parameters(), actor_before))
    print("OK")


if __name__ == "__main__":
    main()
