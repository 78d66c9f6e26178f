"""
expect: none
dynamic: dismiss
source: https://github.com/toshikwa/slac.pytorch/blob/HEAD/slac/algo.py

Look-alike from SLAC (stochastic latent actor-critic, a world-model agent). prepare_batch
encodes the observation sequence and samples the latent posterior under torch.no_grad(),
then the critic and actor are trained on those latents. That cut is on purpose: the latent
model is trained only by its own ELBO-style loss in update_latent, and the SAC losses must
not reach it. The asserts show the SAC step gives the critic and actor non-zero gradients
and moves them, leaves the latent model untouched, and the latent step trains the latent
model.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

OBS, Z, ACT, B = 10, 6, 2, 32


class LatentModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(OBS, 32), nn.ReLU(), nn.Linear(32, 2 * Z))
        self.decoder = nn.Sequential(nn.Linear(Z, 32), nn.ReLU(), nn.Linear(32, OBS))

    def posterior(self, obs):
        mu, log_std = self.encoder(obs).chunk(2, -1)
        return mu + log_std.clamp(-5, 2).exp() * torch.randn_like(mu), mu, log_std

    def loss(self, obs):
        z, mu, log_std = self.posterior(obs)
        kl = 0.5 * (mu ** 2 + (2 * log_std).exp() - 2 * log_std - 1).sum(-1).mean()
        return F.mse_loss(self.decoder(z), obs) + 1e-2 * kl


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(Z, 32), nn.ReLU(), nn.Linear(32, ACT), nn.Tanh())

    def forward(self, z):
        return self.net(z)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(Z + ACT, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, z, a):
        return self.net(torch.cat([z, a], -1)).squeeze(-1)


class SlacAgent:
    def __init__(self):
        self.latent, self.actor, self.critic = LatentModel(), Actor(), Critic()
        self.critic_target = Critic()
        self.critic_target.load_state_dict(self.critic.state_dict())
        self.critic_target.requires_grad_(False)
        self.opt_latent = torch.optim.Adam(self.latent.parameters(), lr=1e-3)
        self.opt_actor = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.opt_critic = torch.optim.Adam(self.critic.parameters(), lr=1e-3)

    def prepare_batch(self, obs, next_obs):
        with torch.no_grad():
            z = self.latent.posterior(obs)[0]
            next_z = self.latent.posterior(next_obs)[0]
        return z, next_z

    def update_sac(self, obs, act, rew, next_obs):
        z, next_z = self.prepare_batch(obs, next_obs)
        q = self.critic(z, act)
        with torch.no_grad():
            target = rew + 0.99 * self.critic_target(next_z, self.actor(next_z))
        loss_critic = F.mse_loss(q, target)
        self.opt_critic.zero_grad()
        loss_critic.backward()
        critic_grads = [p.grad.clone() for p in self.critic.parameters()]
        self.opt_critic.step()

        loss_actor = -self.critic(z, self.actor(z)).mean()
        self.opt_actor.zero_grad()
        loss_actor.backward()
        actor_grads = [p.grad.clone() for p in self.actor.parameters()]
        self.opt_actor.step()
        return critic_grads, actor_grads

    def update_latent(self, obs):
        loss = self.latent.loss(obs)
        self.opt_latent.zero_grad()
        loss.backward()
        self.opt_latent.step()


agent = SlacAgent()
obs, next_obs = torch.randn(B, OBS), torch.randn(B, OBS)
act, rew = torch.rand(B, ACT) * 2 - 1, torch.randn(B)

snap = lambda m: [p.detach().clone() for p in m.parameters()]
lat0, act0, cri0 = snap(agent.latent), snap(agent.actor), snap(agent.critic)
for _ in range(3):
    cg, ag = agent.update_sac(obs, act, rew, next_obs)
    assert all(g.abs().sum() > 0 for g in cg) and all(g.abs().sum() > 0 for g in ag)
assert all(p.grad is None for p in agent.latent.parameters())
assert all(torch.equal(p, p0) for p, p0 in zip(agent.latent.parameters(), lat0))
assert all(not torch.equal(p, p0) for p, p0 in zip(agent.actor.parameters(), act0))
assert all(not torch.equal(p, p0) for p, p0 in zip(agent.critic.parameters(), cri0))

agent.update_latent(obs)
assert all(not torch.equal(p, p0) for p, p0 in zip(agent.latent.parameters(), lat0))
print("SLAC: latents sampled under no_grad; SAC trains actor+critic, latent model trained by its own loss")
