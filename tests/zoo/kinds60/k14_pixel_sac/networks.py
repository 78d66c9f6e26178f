import torch
import torch.nn as nn


class PixelEncoder(nn.Module):
    def __init__(self, channels=3, feature_dim=32):
        super().__init__()
        self.convs = nn.Sequential(nn.Conv2d(channels, 16, 3, stride=2), nn.ReLU(),
                                   nn.Conv2d(16, 16, 3, stride=1), nn.ReLU())
        self.fc = nn.Linear(16 * 3 * 3, feature_dim)
        self.ln = nn.LayerNorm(feature_dim)

    def forward(self, obs):
        h = self.convs(obs).flatten(1)
        return torch.tanh(self.ln(self.fc(h)))


class Actor(nn.Module):
    def __init__(self, encoder, act_dim, hidden=64, log_std_min=-5.0, log_std_max=2.0):
        super().__init__()
        self.encoder = encoder
        self.trunk = nn.Sequential(nn.Linear(encoder.fc.out_features, hidden), nn.ReLU(),
                                   nn.Linear(hidden, 2 * act_dim))
        self.log_std_min, self.log_std_max = log_std_min, log_std_max

    def forward(self, obs, detach_encoder=False):
        h = self.encoder(obs)
        h = h.detach() if detach_encoder else h
        mu, log_std = self.trunk(h).chunk(2, dim=-1)
        log_std = log_std.clamp(self.log_std_min, self.log_std_max)
        std = log_std.exp()
        eps = torch.randn_like(mu)
        pre = mu + std * eps
        act = torch.tanh(pre)
        log_prob = (-0.5 * eps.pow(2) - log_std - 0.5 * torch.log(torch.tensor(2 * torch.pi))).sum(-1)
        log_prob = log_prob - torch.log(1 - act.pow(2) + 1e-6).sum(-1)
        return act, log_prob, torch.tanh(mu)


class Critic(nn.Module):
    def __init__(self, encoder, act_dim, hidden=64):
        super().__init__()
        self.encoder = encoder
        feat = encoder.fc.out_features
        self.q1 = nn.Sequential(nn.Linear(feat + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.q2 = nn.Sequential(nn.Linear(feat + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs, act, detach_encoder=False):
        h = self.encoder(obs)
        h = h.detach() if detach_encoder else h
        ha = torch.cat([h, act], dim=-1)
        return self.q1(ha), self.q2(ha)
