import torch
import torch.nn as nn
import torch.nn.functional as F


class SharedAgent(nn.Module):
    def __init__(self, obs_dim=6, act_dim=2, hid=32):
        super().__init__()
        self.traj_encoder = nn.GRU(obs_dim, hid, batch_first=True)
        self.actor = nn.Sequential(nn.Linear(hid, hid), nn.ReLU(), nn.Linear(hid, act_dim), nn.Tanh())
        self.critic = nn.Sequential(nn.Linear(hid + act_dim, hid), nn.ReLU(), nn.Linear(hid, 1))


def losses(agent, obs_seq, act, target_q):
    h, _ = agent.traj_encoder(obs_seq)
    h = h[:, -1]
    q_taken = agent.critic(torch.cat([h, act], dim=1))
    critic_loss = F.mse_loss(q_taken, target_q)
    q_pi = agent.critic(torch.cat([h, agent.actor(h)], dim=1))
    actor_loss = -q_pi.mean()
    return actor_loss, critic_loss


def alternate_backward(agent, opt, batch):
    """Actor gradients must not reach the critic: backward the actor loss first (keeping the
    shared graph), wipe the critic's gradients, then add the critic loss's gradients."""
    actor_loss, critic_loss = losses(agent, *batch)
    opt.zero_grad()
    actor_loss.backward(retain_graph=True)
    for p in agent.critic.parameters():
        p.grad = None
    critic_loss.backward()
    opt.step()
    return actor_loss.detach(), critic_loss.detach()
