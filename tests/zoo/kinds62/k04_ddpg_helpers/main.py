"""
expect: GL005 optim_utils.py:9
dynamic: confirm
source: none, invented

DDPG on a toy one-step control task (the reward is highest when the action matches a squashed slice of the
state). In train_step both losses are built first: the critic's TD loss, and the actor loss -Q(s, pi(s)), which
goes through the critic. The critic is then updated by the shared helper optim_utils.update, whose opt.step()
overwrites the critic's weights in place, and only afterwards does train_step call actor_loss.backward(). The
actor graph saved the critic's old weights, so that backward raises the "modified by an inplace operation"
error and the actor is never updated. The asserts catch the error and check the actor is unchanged; the
reordered step (actor through the helper first, then the critic) trains both networks and raises the Q-value
of the policy's own actions.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from optim_utils import soft_update, update

torch.manual_seed(0)
torch.set_num_threads(1)

S_DIM, A_DIM, GAMMA, TAU = 4, 2, 0.0, 0.01


def mlp(inp, out, hidden=64, act_out=None):
    layers = [nn.Linear(inp, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, out)]
    if act_out is not None:
        layers.append(act_out)
    return nn.Sequential(*layers)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = mlp(S_DIM + A_DIM, 1)

    def forward(self, s, a):
        return self.body(torch.cat([s, a], dim=-1))


def replay_sample(n=128):
    s = torch.randn(n, S_DIM)
    a = torch.rand(n, A_DIM) * 2 - 1
    r = -(a - torch.tanh(s[:, :A_DIM])).pow(2).sum(-1, keepdim=True)
    s2 = torch.randn(n, S_DIM)
    done = torch.ones(n, 1)
    return s, a, r, s2, done


class Agent:
    def __init__(self):
        torch.manual_seed(0)
        self.actor = mlp(S_DIM, A_DIM, act_out=nn.Tanh())
        self.critic = Critic()
        self.actor_targ = copy.deepcopy(self.actor).requires_grad_(False)
        self.critic_targ = copy.deepcopy(self.critic).requires_grad_(False)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=1e-3)

    def train_step(self, batch):
        s, a, r, s2, done = batch
        with torch.no_grad():
            y = r + GAMMA * (1 - done) * self.critic_targ(s2, self.actor_targ(s2))
        critic_loss = F.mse_loss(self.critic(s, a), y)
        actor_loss = -self.critic(s, self.actor(s)).mean()

        update(self.critic_opt, critic_loss, self.critic.parameters(), max_norm=1.0)

        self.actor_opt.zero_grad()
        actor_loss.backward()
        self.actor_opt.step()

        soft_update(self.critic_targ, self.critic, TAU)
        soft_update(self.actor_targ, self.actor, TAU)

    def train_step_actor_first(self, batch):
        s, a, r, s2, done = batch
        with torch.no_grad():
            y = r + GAMMA * (1 - done) * self.critic_targ(s2, self.actor_targ(s2))
        critic_loss = F.mse_loss(self.critic(s, a), y)
        actor_loss = -self.critic(s, self.actor(s)).mean()

        update(self.actor_opt, actor_loss)
        update(self.critic_opt, critic_loss, self.critic.parameters(), max_norm=1.0)

        soft_update(self.critic_targ, self.critic, TAU)
        soft_update(self.actor_targ, self.actor, TAU)


def policy_reward(actor, n=512):
    g = torch.Generator().manual_seed(1)
    s = torch.randn(n, S_DIM, generator=g)
    with torch.no_grad():
        return -(actor(s) - torch.tanh(s[:, :A_DIM])).pow(2).sum(-1).mean().item()


def main():
    agent = Agent()
    start = [p.detach().clone() for p in agent.actor.parameters()]
    try:
        agent.train_step(replay_sample())
        raised = None
    except RuntimeError as exc:
        raised = str(exc)
    assert raised is not None and "modified by an inplace operation" in raised, raised
    assert all(torch.equal(p, p0) for p, p0 in zip(agent.actor.parameters(), start))

    agent = Agent()
    before = policy_reward(agent.actor)
    for _ in range(400):
        agent.train_step_actor_first(replay_sample())
    after = policy_reward(agent.actor)
    assert after > before + 0.2, (before, after)
    print(f"k04: policy reward {before:.3f} -> {after:.3f}")


if __name__ == "__main__":
    main()
