"""
expect: none
dynamic: dismiss
source: none, invented

Soft actor-critic on a 1-D point-mass task (move toward the origin). The networks live in a dict
`agent = {"actor": ..., "q1": ..., "q2": ...}`. The actor class defines its own `sample(obs)`
(reparameterised `rsample` + tanh squashing, returning the action and its log-probability, both
with history), a name it shares with torch distribution and sampler methods. Each
update steps the twin critics first, then builds the actor loss from a fresh
`agent["actor"].sample(obs)` through the updated critics with `alpha.detach() * logp`, and finally
tunes the temperature with `-(log_alpha * (logp + target_entropy).detach())`. Every loss is built
after the last step of the networks it passes through, so this is correct. The asserts check that
actor, critics and temperature all change and that the learned mean action pushes toward the origin.
"""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SquashedGaussianActor(nn.Module):
    def __init__(self, obs_dim=1, act_dim=1, hidden=64):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.mu = nn.Linear(hidden, act_dim)
        self.log_std = nn.Linear(hidden, act_dim)

    def forward(self, obs):
        h = self.trunk(obs)
        return self.mu(h), self.log_std(h).clamp(-5, 2)

    def sample(self, obs):
        mu, log_std = self(obs)
        dist = torch.distributions.Normal(mu, log_std.exp())
        u = dist.rsample()
        action = torch.tanh(u)
        logp = dist.log_prob(u) - torch.log(1 - action.pow(2) + 1e-6)
        return action, logp.sum(-1, keepdim=True)

    def mean_action(self, obs):
        return torch.tanh(self(obs)[0])


def q_net():
    return nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))


def env(pos, act):
    nxt = (pos + 0.3 * act).clamp(-1, 1)
    return nxt, -nxt.abs()


def main(updates=400, gamma=0.9, bs=128, tau=0.02):
    agent = {"actor": SquashedGaussianActor(), "q1": q_net(), "q2": q_net()}
    targets = {k: copy.deepcopy(agent[k]) for k in ("q1", "q2")}
    actor_opt = torch.optim.Adam(agent["actor"].parameters(), lr=1e-3)
    critic_opt = torch.optim.Adam(list(agent["q1"].parameters()) + list(agent["q2"].parameters()), lr=1e-3)
    log_alpha = torch.zeros(1, requires_grad=True)
    alpha_opt = torch.optim.Adam([log_alpha], lr=1e-3)
    target_entropy = -1.0
    snap = {k: copy.deepcopy(v.state_dict()) for k, v in agent.items()}

    for _ in range(updates):
        obs = torch.rand(bs, 1) * 2 - 1
        act = torch.rand(bs, 1) * 2 - 1
        nxt, rew = env(obs, act)
        with torch.no_grad():
            a2, logp2 = agent["actor"].sample(nxt)
            sa2 = torch.cat([nxt, a2], -1)
            q_next = torch.min(targets["q1"](sa2), targets["q2"](sa2)) - log_alpha.exp() * logp2
            y = rew + gamma * q_next
        sa = torch.cat([obs, act], -1)
        critic_loss = F.mse_loss(agent["q1"](sa), y) + F.mse_loss(agent["q2"](sa), y)
        critic_opt.zero_grad()
        critic_loss.backward()
        critic_opt.step()

        alpha = log_alpha.exp()
        pi_act, logp = agent["actor"].sample(obs)
        sa_pi = torch.cat([obs, pi_act], -1)
        q_pi = torch.min(agent["q1"](sa_pi), agent["q2"](sa_pi))
        actor_loss = (alpha.detach() * logp - q_pi).mean()
        actor_opt.zero_grad()
        actor_loss.backward()
        actor_opt.step()

        alpha_loss = -(log_alpha * (logp + target_entropy).detach()).mean()
        alpha_opt.zero_grad()
        alpha_loss.backward()
        alpha_opt.step()

        with torch.no_grad():
            for k in targets:
                for t, s in zip(targets[k].parameters(), agent[k].parameters()):
                    t.lerp_(s, tau)

    for k, net in agent.items():
        moved = max((net.state_dict()[n] - snap[k][n]).abs().max().item() for n in snap[k])
        assert moved > 1e-3, k
    assert abs(log_alpha.item()) > 1e-3
    with torch.no_grad():
        probe = torch.tensor([[-0.8], [0.8]])
        mean_act = agent["actor"].mean_action(probe).squeeze(-1)
    assert mean_act[0] > 0 and mean_act[1] < 0, mean_act
    assert not math.isnan(log_alpha.item())


if __name__ == "__main__":
    main()
    print("k16_sac_point_mass: all checks passed")
