"""
expect: GL001 agent_utils.py:13, GL003 main.py:101
dynamic: confirm
source: https://github.com/adomenech-UOC/TFG-Yahtzee/blob/ffbebb6e01229a9763a6bfa99c4a4c2d17c93bd6/src/trainer.py

An actor-critic agent for a small dice game. The action helper shared with
the DQN trainer (agent_utils.select_action) runs the network under
torch.no_grad() and returns its output along with the chosen action. The A2C
trainer builds its Categorical policy from that returned output, so
log_prob has no history; backward() on the actor loss failed with "element 0
of tensors does not require grad", and the trainer answered with
actor_loss.requires_grad = True. The error disappears, the actor loss becomes
a detached leaf, and the actor never changes, while the critic, trained from
its own forward pass, keeps learning. The asserts show the actor's gradients
stay None and its weights are bit-identical after training, the critic
moves, and a policy evaluated with autograd on trains the actor.
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

from agent_utils import select_action

N_ACTIONS, STATE_DIM = 6, 8


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(STATE_DIM, 32), nn.ReLU(), nn.Linear(32, N_ACTIONS))

    def forward(self, x):
        return F.softmax(self.net(x), dim=-1)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(STATE_DIM, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x)


class DiceGame:
    def __init__(self, seed=0):
        self.g = torch.Generator().manual_seed(seed)
        self.turn = 0

    def reset(self):
        self.turn = 0
        self.state = torch.rand(STATE_DIM, generator=self.g)
        return self.state

    def valid_mask(self):
        return [True] * (N_ACTIONS - 1) + [self.turn > 0]

    def step(self, action):
        reward = float(self.state[action % STATE_DIM] > 0.5)
        self.turn += 1
        self.state = torch.rand(STATE_DIM, generator=self.g)
        return self.state, reward, self.turn >= 6


def train_a2c(n_games=20, gamma=0.95, fixed=False):
    torch.manual_seed(0)
    random.seed(0)
    actor, critic = Actor(), Critic()
    opt_actor = torch.optim.AdamW(actor.parameters(), lr=1e-2)
    opt_critic = torch.optim.AdamW(critic.parameters(), lr=1e-2)
    env = DiceGame()
    a0, c0 = actor.net[0].weight.detach().clone(), critic.net[0].weight.detach().clone()
    actor_grads = []
    for _ in range(n_games):
        state, done = env.reset(), False
        while not done:
            action_idx, action_probs = select_action(actor, state, env.valid_mask())
            if fixed:
                action_probs = actor(state.unsqueeze(0))
            dist = Categorical(action_probs)
            sample = dist.sample()
            next_state, reward, done = env.step(action_idx)

            value = critic(state)
            next_value = critic(next_state)
            td_target = reward + gamma * next_value * (1 - done)
            advantage = td_target - value

            opt_critic.zero_grad()
            critic_loss = F.mse_loss(value, td_target.detach(), reduction="none")
            critic_loss.sum().backward()
            opt_critic.step()

            opt_actor.zero_grad()
            log_prob = dist.log_prob(sample)
            actor_loss = torch.sum(-log_prob * advantage.detach())
            if not fixed:
                actor_loss.requires_grad = True
            actor_loss.sum().backward()
            actor_grads.append(actor.net[0].weight.grad)
            opt_actor.step()
            state = next_state
    actor_moved = not torch.equal(actor.net[0].weight, a0)
    critic_moved = not torch.equal(critic.net[0].weight, c0)
    return actor_grads, actor_moved, critic_moved


if __name__ == "__main__":
    torch.set_num_threads(1)
    grads, actor_moved, critic_moved = train_a2c()
    assert all(g is None for g in grads), "actor should never get a gradient"
    assert not actor_moved and critic_moved

    grads_ok, actor_moved_ok, _ = train_a2c(fixed=True)
    assert all(g is not None for g in grads_ok) and actor_moved_ok
    print("flagged actor loss: actor frozen, critic trained; graph-connected policy: actor trained")
