"""
expect: GL005 main.py:75
dynamic: confirm
source: none, invented

DDPG on a toy 1-D pendulum-like system. The shared helper `update(opt, loss, scale)` in rl_utils.py
zeroes gradients, runs `(loss * scale).backward()` and steps. The actor loss `-critic(s, actor(s))`
is built first, then the critic is updated through the helper, which steps the critic's Adam and
overwrites the critic weights in place; the actor loss graph still needs those weights to send the
gradient back through the critic to the action, so the actor's `update` fails with the
"modified by an inplace operation" error. The asserts catch it; the `sequential=True` path builds the
actor loss after the critic step and the actor weights move.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from rl_utils import soft_update, update

torch.manual_seed(0)
torch.set_num_threads(1)

OBS, ACT = 3, 1


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS, 64), nn.ReLU(), nn.Linear(64, ACT))

    def forward(self, s):
        return 2.0 * torch.tanh(self.body(s))


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.q = nn.Sequential(nn.Linear(OBS + ACT, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, s, a):
        return self.q(torch.cat([s, a], dim=-1))


def env_step(s, a):
    th = torch.atan2(s[:, 1:2], s[:, 0:1])
    thdot = s[:, 2:3]
    r = -(th ** 2 + 0.1 * thdot ** 2 + 0.001 * a ** 2)
    thdot = (thdot + 0.05 * (3.0 * torch.sin(th) + a)).clamp(-8, 8)
    th = th + 0.05 * thdot
    return torch.cat([torch.cos(th), torch.sin(th), thdot], dim=-1), r


def run(steps, sequential=False, gamma=0.98, bs=64):
    actor, critic = Actor(), Critic()
    actor_t, critic_t = copy.deepcopy(actor), copy.deepcopy(critic)
    a_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
    c_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
    start = copy.deepcopy(actor.state_dict())
    for _ in range(steps):
        th = torch.rand(bs, 1) * 6.28 - 3.14
        s = torch.cat([torch.cos(th), torch.sin(th), torch.randn(bs, 1)], dim=-1)
        a = (actor(s) + 0.3 * torch.randn(bs, ACT)).clamp(-2, 2).detach()
        s2, r = env_step(s, a)
        with torch.no_grad():
            y = r + gamma * critic_t(s2, actor_t(s2))
        critic_loss = F.mse_loss(critic(s, a), y)
        if sequential:
            update(c_opt, critic_loss, scale=1.0, max_norm=5.0)
            actor_loss = -critic(s, actor(s)).mean()
            update(a_opt, actor_loss, scale=1.0)
        else:
            actor_loss = -critic(s, actor(s)).mean()
            update(c_opt, critic_loss, scale=1.0, max_norm=5.0)
            update(a_opt, actor_loss, scale=1.0)
        soft_update(actor_t, actor, 0.01)
        soft_update(critic_t, critic, 0.01)
    return max((actor.state_dict()[k] - start[k]).abs().max().item() for k in start)


if __name__ == "__main__":
    err = None
    try:
        run(2)
    except RuntimeError as e:
        err = str(e)
    assert err is not None and "modified by an inplace operation" in err, err
    assert run(30, sequential=True) > 1e-3
    print("k02_pendulum_ddpg: all checks passed")
