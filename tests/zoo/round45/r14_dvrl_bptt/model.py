"""Belief-state actor-critic: a recurrent variational belief over a latent state feeds a policy and a value head."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical, Normal


class BeliefPolicy(nn.Module):
    def __init__(self, obs_dim=6, n_actions=3, hidden=24, latent=8):
        super().__init__()
        self.n_actions = n_actions
        self.cell = nn.GRUCell(obs_dim + n_actions, hidden)
        self.to_mu = nn.Linear(hidden, latent)
        self.to_logvar = nn.Linear(hidden, latent)
        self.decoder = nn.Linear(latent, obs_dim)
        self.actor = nn.Linear(latent + hidden, n_actions)
        self.critic = nn.Linear(latent + hidden, 1)

    def new_latent_state(self, batch):
        return torch.zeros(batch, self.cell.hidden_size)

    def forward(self, obs, prev_action, belief):
        belief = self.cell(torch.cat([obs, F.one_hot(prev_action, self.n_actions).float()], 1), belief)
        mu, logvar = self.to_mu(belief), self.to_logvar(belief).clamp(-6, 3)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        # encoding loss: reconstruct the observation and keep q(z|belief) near N(0, I)
        recon = F.mse_loss(self.decoder(z), obs, reduction="none").sum(1)
        kl = (0.5 * (mu.pow(2) + logvar.exp() - 1 - logvar)).sum(1)
        feat = torch.cat([z, belief], 1)
        dist = Categorical(logits=self.actor(feat))
        action = dist.sample()
        value = self.critic(feat).squeeze(1)
        return {
            "action": action,
            "log_prob": dist.log_prob(action),
            "entropy": dist.entropy(),
            "value": value,
            "encoding_loss": recon + kl,
            "belief": belief,
        }
