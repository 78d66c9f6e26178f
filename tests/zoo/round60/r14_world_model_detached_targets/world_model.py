"""Latent world model: encoder, latent dynamics and decoder trained together."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class WorldModel(nn.Module):
    def __init__(self, obs_dim, act_dim, latent_dim=4, detach_all_targets=True):
        super().__init__()
        self.encoder = nn.Linear(obs_dim, latent_dim)
        self.decoder = nn.Linear(latent_dim, obs_dim)
        self.dynamics = nn.Sequential(nn.Linear(latent_dim + act_dim, 32), nn.Tanh(),
                                      nn.Linear(32, latent_dim))
        self.detach_all_targets = detach_all_targets
        self.opt = torch.optim.Adam(self.parameters(), lr=1e-2)

    def observe_rollout(self, observations, actions):
        # observations: (B, T+1, obs_dim), actions: (B, T, act_dim)
        latents = self.encoder(observations)
        inputs, targets = latents[:, :-1], latents[:, 1:]
        outputs = self.dynamics(torch.cat([inputs.detach(), actions], dim=-1))
        if self.detach_all_targets:
            return targets.detach(), outputs
        return targets, outputs

    def update(self, targets, outputs, observations):
        dynamic_loss = F.mse_loss(outputs, targets.detach())
        recon_loss = F.mse_loss(self.decoder(targets), observations[:, 1:])
        loss = dynamic_loss + recon_loss
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return recon_loss.item()
