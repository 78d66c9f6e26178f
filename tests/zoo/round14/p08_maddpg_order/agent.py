import torch
import torch.nn as nn
import torch.nn.functional as F


def mlp(i, o):
    return nn.Sequential(nn.Linear(i, 32), nn.ReLU(), nn.Linear(32, o))


class MADDPGAgent:
    def __init__(self, obs_dim=6, act_dim=2, n_agents=2, gamma=0.95):
        self.actor = mlp(obs_dim, act_dim)
        self.critic = mlp(n_agents * (obs_dim + act_dim), 1)
        self.target_critic = mlp(n_agents * (obs_dim + act_dim), 1)
        self.target_critic.load_state_dict(self.critic.state_dict())
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        self.gamma = gamma

    def losses(self, obs, acts, reward, next_obs, next_acts, my_obs, idx):
        with torch.no_grad():
            q_next = self.target_critic(torch.cat([next_obs, next_acts], dim=1))
            target_q = reward + self.gamma * q_next
        q_value = self.critic(torch.cat([obs, acts], dim=1))
        critic_loss = F.mse_loss(q_value, target_q)

        new_acts = acts.clone()
        new_acts[:, idx * 2:(idx + 1) * 2] = torch.tanh(self.actor(my_obs))
        actor_loss = -self.critic(torch.cat([obs, new_acts], dim=1)).mean()
        return critic_loss, actor_loss

    def learn_critic_first(self, batch, idx=0):
        critic_loss, actor_loss = self.losses(*batch, idx)
        self.critic_optim.zero_grad()
        critic_loss.backward()
        self.critic_optim.step()

        self.actor_optim.zero_grad()
        actor_loss.backward()
        self.actor_optim.step()

    def learn_actor_first(self, batch, idx=0):
        critic_loss, actor_loss = self.losses(*batch, idx)
        self.actor_optim.zero_grad()
        actor_loss.backward()
        self.actor_optim.step()

        self.critic_optim.zero_grad()
        critic_loss.backward()
        self.critic_optim.step()
