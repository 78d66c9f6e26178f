"""
expect: none
dynamic: dismiss
source: kinds check 11, kind 2

A deterministic actor-critic (DDPG-style) step on random continuous-control
transitions. The module-level helper critic_regression() detaches the actor's
actions so that the critic's temporal-difference regression trains only the
critic, which is the intended stop-gradient. The actor is trained by its own
separate loss, -Q(s, actor(s)), computed with a fresh actor and critic forward
after the critic update and NOT detached, so the actor receives a gradient
through the critic. Every critic parameter gets a gradient from the critic loss
and every actor parameter gets one from the actor loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Critic(nn.Module):
    def __init__(self, s_dim=6, a_dim=2):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(s_dim + a_dim, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, s, a):
        return self.body(torch.cat([s, a], dim=-1)).squeeze(-1)


def critic_regression(critic, states, actions, targets):
    acts = actions.detach()
    q = critic(states, acts)
    return F.mse_loss(q, targets)


def main():
    torch.manual_seed(3)
    actor = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 2), nn.Tanh())
    critic = Critic()
    a_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
    c_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
    states = torch.randn(32, 6)
    rewards = torch.randn(32)

    actions = actor(states)
    c_loss = critic_regression(critic, states, actions, rewards)
    c_opt.zero_grad()
    a_opt.zero_grad()
    c_loss.backward()
    assert all(p.grad is not None for p in critic.parameters())
    assert all(p.grad is None for p in actor.parameters())  # intended stop-gradient
    c_opt.step()

    a_loss = -critic(states, actor(states)).mean()
    a_opt.zero_grad()
    a_loss.backward()
    for p in actor.parameters():
        assert p.grad is not None and p.grad.abs().sum() > 0
    a_opt.step()
    print("k02 ok: critic and actor both trained (losses %.3f, %.3f)" % (c_loss.item(), a_loss.item()))


if __name__ == "__main__":
    main()
