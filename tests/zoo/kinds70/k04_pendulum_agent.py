"""
expect: GL001 58
dynamic: confirm
source: none, invented

A DDPG-style agent for a continuous-control task. The trainer computes the critic's Q-value of the actor's action
once, with the action `.detach()`ed (correct for the critic update), and hands that same score to both
`update_actor(score)` and `update_critic(score, target)`. The actor update builds its loss as `-score.mean()`
and steps the actor optimizer, but since the action was detached the score has no path back to the actor: the
actor's parameters get no gradient and never change (the actor loss only pollutes the critic's .grad, which the
critic update then zeroes). This is a bug: the policy never learns.
"""
import torch
import torch.nn as nn


class Actor(nn.Module):
    def __init__(self, obs_dim=3, act_dim=1):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, act_dim), nn.Tanh())

    def forward(self, obs):
        return 2.0 * self.net(obs)


class Critic(nn.Module):
    def __init__(self, obs_dim=3, act_dim=1):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim + act_dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], dim=-1)).squeeze(-1)


class AgentTrainer:
    def __init__(self):
        self.actor = Actor()
        self.critic = Critic()
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=1e-3)

    def update_actor(self, score):
        actor_loss = -score.mean()
        self.actor_opt.zero_grad()
        actor_loss.backward(retain_graph=True)
        self.actor_opt.step()
        return actor_loss.item()

    def update_critic(self, score, target):
        critic_loss = (score - target).pow(2).mean()
        self.critic_opt.zero_grad()
        critic_loss.backward()
        self.critic_opt.step()
        return critic_loss.item()

    def step(self, obs, reward):
        action = self.actor(obs)
        score = self.critic(obs, action.detach())
        a_loss = self.update_actor(score)
        c_loss = self.update_critic(score, reward)
        return a_loss, c_loss


def main():
    torch.manual_seed(0)
    trainer = AgentTrainer()
    actor_before = [p.detach().clone() for p in trainer.actor.parameters()]
    critic_before = [p.detach().clone() for p in trainer.critic.parameters()]
    for it in range(20):
        obs = torch.randn(64, 3)
        reward = -(obs[:, 0] ** 2)
        trainer.step(obs, reward)
        assert all(p.grad is None for p in trainer.actor.parameters()), "actor got gradient?"
    assert all(torch.equal(a, p) for a, p in zip(actor_before, trainer.actor.parameters())), "actor changed"
    assert any(not torch.equal(a, p) for a, p in zip(critic_before, trainer.critic.parameters()))
    print("bug confirmed: actor never updated")


if __name__ == "__main__":
    main()
