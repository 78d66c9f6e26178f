import torch
import torch.nn as nn


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, act_dim), nn.Tanh())

    def forward(self, obs):
        return self.net(obs)


class CentralCritic(nn.Module):
    def __init__(self, joint_obs, joint_act):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(joint_obs + joint_act, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], -1))


class DDPGAgent:
    def __init__(self, obs_dim, act_dim, n_agents):
        self.actor = Actor(obs_dim, act_dim)
        self.critic = CentralCritic(obs_dim * n_agents, act_dim * n_agents)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-2)

    def act(self, obs, noise=0.0):
        """Env-facing action: what the rollout worker sends to the simulator."""
        a = self.actor(obs)
        a = (a + noise * torch.randn_like(a)).clamp(-1.0, 1.0)
        return a.detach().cpu().numpy()
