"""
expect: none
dynamic: dismiss
source: kind 3

An RL agent is assembled by a small factory into a SimpleNamespace holding a
state encoder and a value critic. The latent z comes from agent.encode(obs),
which runs only the encoder. The critic loss is backpropagated through z with
retain_graph=True, opt_c.step() updates the critic, and then an auxiliary
next-state reconstruction loss is backpropagated through the same z. That
second backward never reaches the critic's weights, so the step in between is
harmless: the asserts show no error and that all three networks train.
"""
from types import SimpleNamespace

import torch
import torch.nn as nn
import torch.nn.functional as F


def build_agent(obs_dim=10, latent=16):
    encoder = nn.Sequential(nn.Linear(obs_dim, latent), nn.Tanh())
    critic = nn.Sequential(nn.Linear(latent, 32), nn.ReLU(), nn.Linear(32, 1))
    return SimpleNamespace(encode=encoder, critic=critic)


class AgentLearner:
    def __init__(self, agent, obs_dim=10, latent=16):
        self.agent = agent
        self.decoder = nn.Linear(latent, obs_dim)
        enc_params = list(agent.encode.parameters()) + list(self.decoder.parameters())
        self.opt_c = torch.optim.Adam(agent.critic.parameters(), lr=3e-3)
        self.opt_e = torch.optim.Adam(enc_params, lr=3e-3)

    def update(self, obs, returns, next_obs):
        z = self.agent.encode(obs)
        value = self.agent.critic(z).squeeze(-1)
        critic_loss = F.mse_loss(value, returns)
        self.opt_c.zero_grad()
        critic_loss.backward(retain_graph=True)
        self.opt_c.step()
        recon_loss = F.mse_loss(self.decoder(z), next_obs)
        self.opt_e.zero_grad()
        recon_loss.backward()
        self.opt_e.step()
        return critic_loss.item(), recon_loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    agent = build_agent()
    learner = AgentLearner(agent)
    dyn = torch.randn(10, 10) * 0.3
    w_enc = agent.encode[0].weight.detach().clone()
    w_crit = agent.critic[0].weight.detach().clone()
    hist = []
    for _ in range(300):
        obs = torch.randn(64, 10)
        hist.append(learner.update(obs, obs[:, :3].sum(-1), obs @ dyn))
    assert not torch.equal(w_enc, agent.encode[0].weight.detach())
    assert not torch.equal(w_crit, agent.critic[0].weight.detach())
    assert hist[-1][0] < 0.3 * hist[0][0] and hist[-1][1] < 0.5 * hist[0][1], (hist[0], hist[-1])
    print("ok: encoder, critic and decoder train", hist[0], hist[-1])
