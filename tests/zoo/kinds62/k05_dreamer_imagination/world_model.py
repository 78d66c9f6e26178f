import torch
import torch.nn as nn
import torch.nn.functional as F


class WorldModel(nn.Module):
    def __init__(self, obs_dim, act_dim, latent=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(obs_dim, 64), nn.ELU(), nn.Linear(64, latent))
        self.dynamics = nn.GRUCell(act_dim, latent)
        self.decoder = nn.Sequential(nn.Linear(latent, 64), nn.ELU(), nn.Linear(64, obs_dim))
        self.reward_head = nn.Sequential(nn.Linear(latent, 64), nn.ELU(), nn.Linear(64, 1))

    def observe(self, obs, actions):
        """obs: (T, B, obs_dim), actions: (T-1, B, act_dim) -> posterior latents (T, B, latent)."""
        return self.encoder(obs)

    def loss(self, obs, actions, rewards):
        z = self.observe(obs, actions)
        recon = F.mse_loss(self.decoder(z), obs)
        z_pred = torch.stack([self.dynamics(a, h) for a, h in zip(actions, z[:-1])])
        latent = F.mse_loss(z_pred, z[1:].detach())
        reward = F.mse_loss(self.reward_head(z[1:]).squeeze(-1), rewards)
        return recon + latent + reward, z

    def imagine(self, start, policy, horizon):
        z, rewards = start, []
        for _ in range(horizon):
            z = self.dynamics(policy(z), z)
            rewards.append(self.reward_head(z).squeeze(-1))
        return torch.stack(rewards)


class WorldModelTrainer:
    def __init__(self, model, lr=3e-4, clip=100.0):
        self.model = model
        self.clip = clip
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)

    def train_step(self, loss):
        self.opt.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
        self.opt.step()
        return loss.item()
