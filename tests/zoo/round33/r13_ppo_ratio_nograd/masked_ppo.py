import torch
import torch.nn as nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=6, n_act=4):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, n_act))
        self.critic = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, 1))


class MaskedPPO:
    """PPO update with an invalid-action mask, copied out of a library policy."""

    def __init__(self, net, eps_clip=0.2, vf_coef=0.5, lr=3e-3):
        self.net = net
        self.eps_clip = eps_clip
        self.vf_coef = vf_coef
        self.optim = torch.optim.Adam(net.parameters(), lr=lr)

    def dist(self, obs, mask):
        logits = self.net.actor(obs).masked_fill(~mask, -1e9)
        return Categorical(logits=logits)

    def losses(self, batch):
        obs, mask, act, logp_old, adv, ret = batch
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        d = self.dist(obs, mask)
        with torch.no_grad():
            ratio = (d.log_prob(act) - logp_old).exp()
        surr1 = ratio * adv
        surr2 = ratio.clamp(1 - self.eps_clip, 1 + self.eps_clip) * adv
        clip_loss = -torch.min(surr1, surr2).mean()
        value = self.net.critic(obs).squeeze(-1)
        vf_loss = (ret - value).pow(2).mean()
        return clip_loss, vf_loss

    def learn(self, batch, repeat=3):
        for _ in range(repeat):
            clip_loss, vf_loss = self.losses(batch)
            loss = clip_loss + self.vf_coef * vf_loss
            self.optim.zero_grad()
            loss.backward()
            self.optim.step()
        return loss.item()
