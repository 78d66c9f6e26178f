"""
expect: GL005 main.py:88
dynamic: confirm
source: none, invented

A TD3 agent keeps its two Q heads inside one TwinCritic module but gives each head its own Adam
optimizer (q1_opt over critic.q1, q2_opt over critic.q2); a helper in optim_utils.py does
zero_grad/backward/step. In train_step the actor loss -Q1(s, pi(s)) is built first, through
critic.q1, so the autograd graph of that loss saves q1's weights (the Linear layers keep them for the
gradient with respect to the action). Then the critic heads are updated with apply_update, whose
Adam step edits q1's weights in place, and only afterwards is the actor loss backpropagated. The
q1 update is what breaks the saved weights (q2 is not on the actor's path). The asserts catch the
"modified by an inplace operation" RuntimeError raised by the actor backward, and show that the
variant which builds the actor loss after the critic step trains both the actor and the critic.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from optim_utils import apply_update, polyak


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=64):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(obs_dim, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, act_dim),
        )

    def forward(self, obs):
        return torch.tanh(self.body(obs))


class QHead(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], dim=-1))


class TwinCritic(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.q1 = QHead(obs_dim, act_dim)
        self.q2 = QHead(obs_dim, act_dim)

    def forward(self, obs, act):
        return self.q1(obs, act), self.q2(obs, act)


class TD3Agent:
    def __init__(self, obs_dim, act_dim, gamma=0.99, tau=0.005, policy_noise=0.2,
                 noise_clip=0.5, actor_after_critic=False):
        self.actor = Actor(obs_dim, act_dim)
        self.actor_target = copy.deepcopy(self.actor)
        self.critic = TwinCritic(obs_dim, act_dim)
        self.critic_target = copy.deepcopy(self.critic)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.q1_opt = torch.optim.Adam(self.critic.q1.parameters(), lr=1e-3)
        self.q2_opt = torch.optim.Adam(self.critic.q2.parameters(), lr=1e-3)
        self.gamma, self.tau = gamma, tau
        self.policy_noise, self.noise_clip = policy_noise, noise_clip
        self.actor_after_critic = actor_after_critic

    def train_step(self, batch):
        obs, act, rew, next_obs, done = batch
        with torch.no_grad():
            noise = (torch.randn_like(act) * self.policy_noise).clamp(-self.noise_clip, self.noise_clip)
            next_act = (self.actor_target(next_obs) + noise).clamp(-1.0, 1.0)
            tq1, tq2 = self.critic_target(next_obs, next_act)
            target_q = rew + self.gamma * (1.0 - done) * torch.min(tq1, tq2)

        if not self.actor_after_critic:
            actor_loss = -self.critic.q1(obs, self.actor(obs)).mean()

        q1_loss = F.mse_loss(self.critic.q1(obs, act), target_q)
        q2_loss = F.mse_loss(self.critic.q2(obs, act), target_q)
        stats = {"q1": apply_update(self.q1_opt, q1_loss)}
        stats["q2"] = apply_update(self.q2_opt, q2_loss)

        if self.actor_after_critic:
            actor_loss = -self.critic.q1(obs, self.actor(obs)).mean()
        stats["pi"] = apply_update(self.actor_opt, actor_loss)

        polyak(self.actor_target, self.actor, self.tau)
        polyak(self.critic_target, self.critic, self.tau)
        return stats


def sample_batch(n, obs_dim, act_dim):
    obs = torch.randn(n, obs_dim)
    act = torch.rand(n, act_dim) * 2 - 1
    rew = -(act ** 2).sum(-1, keepdim=True) + 0.1 * obs[:, :1]
    next_obs = obs + 0.05 * torch.randn_like(obs)
    done = (torch.rand(n, 1) < 0.05).float()
    return obs, act, rew, next_obs, done


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    obs_dim, act_dim = 8, 2

    agent = TD3Agent(obs_dim, act_dim)
    try:
        agent.train_step(sample_batch(64, obs_dim, act_dim))
        raise AssertionError("actor backward should have failed")
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err

    torch.manual_seed(0)
    agent = TD3Agent(obs_dim, act_dim, actor_after_critic=True)
    actor_w0 = [p.detach().clone() for p in agent.actor.parameters()]
    q1_w0 = [p.detach().clone() for p in agent.critic.q1.parameters()]
    for _ in range(20):
        stats = agent.train_step(sample_batch(64, obs_dim, act_dim))
    assert all(not torch.equal(a, p) for a, p in zip(actor_w0, agent.actor.parameters()))
    assert all(not torch.equal(a, p) for a, p in zip(q1_w0, agent.critic.q1.parameters()))
    assert all(v == v for v in stats.values())
    print("td3 twin critic: ok", {k: round(v, 4) for k, v in stats.items()})


if __name__ == "__main__":
    main()
