import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, obs_dim, feat_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, feat_dim))

    def forward(self, x):
        return self.net(x)


class ICM(nn.Module):
    def __init__(self, feat_dim, act_dim):
        super().__init__()
        self.forward_net = nn.Sequential(nn.Linear(feat_dim + act_dim, 32), nn.ReLU(), nn.Linear(32, feat_dim))
        self.backward_net = nn.Sequential(nn.Linear(2 * feat_dim, 32), nn.ReLU(), nn.Linear(32, act_dim))

    def forward(self, obs, action, next_obs):
        pred_next = self.forward_net(torch.cat([obs, action], dim=-1))
        pred_action = torch.tanh(self.backward_net(torch.cat([obs, next_obs], dim=-1)))
        fwd_err = (pred_next - next_obs).pow(2).mean()
        bwd_err = (pred_action - action).pow(2).mean()
        return fwd_err, bwd_err


class CuriosityAgent:
    def __init__(self, obs_dim=8, act_dim=2, feat_dim=16):
        self.encoder = Encoder(obs_dim, feat_dim)
        self.icm = ICM(feat_dim, act_dim)
        params = list(self.encoder.parameters()) + list(self.icm.parameters())
        self.opt = torch.optim.Adam(params, lr=1e-2)

    def icm_step(self, obs, action, next_obs):
        fwd_err, bwd_err = self.icm(obs, action, next_obs)
        loss = fwd_err + bwd_err
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    def update(self, raw_obs, action, raw_next_obs, update_encoder=True):
        obs = self.encoder(raw_obs)
        next_obs = self.encoder(raw_next_obs)
        if not update_encoder:
            obs, next_obs = obs.detach(), next_obs.detach()
        return self.icm_step(obs.detach(), action, next_obs.detach())

    def update_fixed(self, raw_obs, action, raw_next_obs, update_encoder=True):
        obs = self.encoder(raw_obs)
        next_obs = self.encoder(raw_next_obs)
        if not update_encoder:
            obs, next_obs = obs.detach(), next_obs.detach()
        return self.icm_step(obs, action, next_obs)
