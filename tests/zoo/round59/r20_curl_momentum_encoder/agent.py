"""Pixel SAC agent parts in the CURL style: shared conv encoder, momentum (target)
encoder for the contrastive keys, an actor that does not train the conv layers, and a
learned entropy temperature."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class PixelEncoder(nn.Module):
    def __init__(self, feature_dim=16):
        super().__init__()
        self.convs = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(),
                                   nn.Conv2d(8, 8, 3, stride=1), nn.ReLU())
        self.fc = nn.Linear(8 * 5 * 5, feature_dim)
        self.ln = nn.LayerNorm(feature_dim)

    def forward(self, obs, detach=False):
        h = self.convs(obs).flatten(1)
        if detach:
            h = h.detach()
        return torch.tanh(self.ln(self.fc(h)))


class CURL(nn.Module):
    def __init__(self, encoder, encoder_target, z_dim=16):
        super().__init__()
        self.encoder = encoder
        self.encoder_target = encoder_target
        self.W = nn.Parameter(torch.rand(z_dim, z_dim))

    def encode(self, x, detach=False, ema=False):
        if ema:
            with torch.no_grad():
                z_out = self.encoder_target(x)
        else:
            z_out = self.encoder(x)
        if detach:
            z_out = z_out.detach()
        return z_out

    def compute_logits(self, z_a, z_pos):
        logits = z_a @ (self.W @ z_pos.T)
        return logits - logits.max(dim=1, keepdim=True)[0]


class Actor(nn.Module):
    def __init__(self, encoder, action_dim=2):
        super().__init__()
        self.encoder = encoder
        self.head = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2 * action_dim))

    def forward(self, obs):
        mu, log_std = self.head(self.encoder(obs, detach=True)).chunk(2, dim=-1)
        std = log_std.clamp(-5, 2).exp()
        pre = mu + std * torch.randn_like(mu)
        log_pi = (-0.5 * ((pre - mu) / std) ** 2 - log_std.clamp(-5, 2)).sum(-1) \
            - torch.log(1 - torch.tanh(pre) ** 2 + 1e-6).sum(-1)
        return torch.tanh(pre), log_pi


def soft_update(net, target_net, tau):
    for param, target_param in zip(net.parameters(), target_net.parameters()):
        target_param.data.copy_(tau * param.data + (1 - tau) * target_param.data)


class Agent:
    def __init__(self, action_dim=2, init_temperature=0.1):
        self.encoder = PixelEncoder()
        self.encoder_target = PixelEncoder()
        self.encoder_target.load_state_dict(self.encoder.state_dict())
        self.curl = CURL(self.encoder, self.encoder_target)
        self.actor = Actor(self.encoder, action_dim)
        self.critic_head = nn.Linear(16 + action_dim, 1)
        self.log_alpha = torch.tensor(np.log(init_temperature))
        self.log_alpha.requires_grad = True
        self.target_entropy = -float(action_dim)
        self.encoder_opt = torch.optim.Adam(self.encoder.parameters(), lr=1e-3)
        self.cpc_opt = torch.optim.Adam([self.curl.W], lr=1e-3)
        self.actor_opt = torch.optim.Adam(self.actor.head.parameters(), lr=1e-3)
        self.alpha_opt = torch.optim.Adam([self.log_alpha], lr=1e-2)

    @property
    def alpha(self):
        return self.log_alpha.exp()

    def update_cpc(self, obs_anchor, obs_pos):
        z_a = self.curl.encode(obs_anchor)
        z_pos = self.curl.encode(obs_pos, ema=True)
        logits = self.curl.compute_logits(z_a, z_pos)
        loss = F.cross_entropy(logits, torch.arange(logits.shape[0]))
        self.encoder_opt.zero_grad()
        self.cpc_opt.zero_grad()
        loss.backward()
        self.encoder_opt.step()
        self.cpc_opt.step()
        return loss.item()

    def update_actor_and_alpha(self, obs):
        action, log_pi = self.actor(obs)
        q = self.critic_head(torch.cat([self.encoder(obs, detach=True), action], dim=-1)).squeeze(-1)
        actor_loss = (self.alpha.detach() * log_pi - q).mean()
        self.actor_opt.zero_grad()
        actor_loss.backward()
        self.actor_opt.step()
        alpha_loss = (self.alpha * (-log_pi - self.target_entropy).detach()).mean()
        self.alpha_opt.zero_grad()
        alpha_loss.backward()
        self.alpha_opt.step()

    def update_target(self, tau=0.05):
        soft_update(self.encoder, self.encoder_target, tau)
