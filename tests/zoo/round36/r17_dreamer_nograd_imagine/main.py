"""
expect: GL001 world_model.py:19
dynamic: confirm
source: https://github.com/esteveste/dreamerV2-pytorch/issues/1

A user of this DreamerV2 port asked how the actor learns at all, since the README says the
port "doesn't support learning the actor by propagating the value network (torch.no_grad())".
Here the world model's imagine() runs the whole latent rollout under torch.no_grad(), and
the actor in "dynamics" mode is trained on -lambda_return. The rollout has no graph, so
the return term gives the actor nothing; only the entropy bonus (recomputed outside)
trains it, and backward runs without complaint. The asserts show the actor gradient is
the same with the return term weighted 1 or 0, while imagining with the graph kept (world
model frozen through requires_grad) gives the return term a real gradient.
"""
import torch
import torch.nn as nn
from torch.distributions import Normal

from world_model import LatentWorldModel

torch.manual_seed(0)
torch.set_num_threads(1)

Z, A, H = 8, 2, 6


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(Z, 32), nn.ELU(), nn.Linear(32, 2 * A))

    def forward(self, z):
        mu, log_std = self.net(z).chunk(2, -1)
        return Normal(torch.tanh(mu), log_std.clamp(-4, 1).exp())


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(Z, 32), nn.ELU(), nn.Linear(32, 1))

    def forward(self, z):
        return self.net(z).squeeze(-1)


def lambda_return(rewards, values, gamma=0.99, lam=0.95):
    out, last = [], values[-1]
    for t in reversed(range(rewards.shape[0])):
        last = rewards[t] + gamma * ((1 - lam) * values[t + 1] + lam * last)
        out.append(last)
    return torch.stack(out[::-1])


def actor_loss(wm, actor, critic, start, return_weight=1.0, ent_weight=1e-3):
    zs, rewards = wm.imagine(actor, start, H)
    values = critic(zs)
    returns = lambda_return(rewards, values)
    entropy = actor(zs[:-1].detach()).entropy().sum(-1).mean()
    return -return_weight * returns.mean() - ent_weight * entropy


def actor_grad(loss, actor):
    g = torch.autograd.grad(loss, list(actor.parameters()), allow_unused=True)
    return torch.cat([(x if x is not None else torch.zeros_like(p)).flatten()
                      for x, p in zip(g, actor.parameters())])


wm, actor, critic = LatentWorldModel(Z, A), Actor(), Critic()
start = torch.randn(32, Z)

torch.manual_seed(1)
g_full = actor_grad(actor_loss(wm, actor, critic, start, return_weight=1.0), actor)
torch.manual_seed(1)
g_none = actor_grad(actor_loss(wm, actor, critic, start, return_weight=0.0), actor)
assert torch.allclose(g_full, g_none), (g_full - g_none).abs().max()


class GraphWorldModel(LatentWorldModel):
    def imagine(self, policy, start, horizon):
        self.requires_grad_(False)
        zs, rewards, z = [start], [], start
        for _ in range(horizon):
            z = self.step(z, policy(z).rsample())
            zs.append(z)
            rewards.append(self.reward(z).squeeze(-1))
        return torch.stack(zs), torch.stack(rewards)


fixed = GraphWorldModel(Z, A)
fixed.load_state_dict(wm.state_dict())
torch.manual_seed(1)
f_full = actor_grad(actor_loss(fixed, actor, critic, start, return_weight=1.0), actor)
torch.manual_seed(1)
f_none = actor_grad(actor_loss(fixed, actor, critic, start, return_weight=0.0), actor)
assert (f_full - f_none).abs().max() > 1e-4
assert torch.allclose(f_none, g_none, atol=1e-7)
print("no_grad imagination: return term gives the actor zero gradient; graph-kept version:",
      round((f_full - f_none).abs().max().item(), 5))
