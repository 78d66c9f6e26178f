"""
expect: none
dynamic: dismiss
source: none, invented

A DQN agent on a 6-state chain (move left/right, reward 1 at the right end). `learn()` computes
the TD loss of the online network against a bootstrap target produced by the target network
under `torch.no_grad()`, then, every few updates, syncs the target with
`self.target_net.load_state_dict(self.q_net.state_dict())` before calling `loss.backward()`. The
restore writes only into the target network, whose outputs were computed without a graph, so the
pending backward through the online network is unaffected: this is correct. The asserts check that
many syncs happened, that the online weights moved, and that the greedy policy moves right in every
non-terminal state.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_STATES, N_ACTIONS = 6, 2


def one_hot(s):
    return F.one_hot(s, N_STATES).float()


def transition(s, a):
    s2 = torch.where(a == 1, s + 1, s - 1).clamp(0, N_STATES - 1)
    done = s2 == N_STATES - 1
    return s2, done.float(), done.float()


class DQNAgent:
    def __init__(self, gamma=0.9, sync_every=10):
        self.q_net = nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, N_ACTIONS))
        self.target_net = copy.deepcopy(self.q_net)
        for p in self.target_net.parameters():
            p.requires_grad_(False)
        self.opt = torch.optim.Adam(self.q_net.parameters(), lr=5e-3)
        self.gamma = gamma
        self.sync_every = sync_every
        self.updates = 0
        self.syncs = 0

    def act(self, s):
        with torch.no_grad():
            return self.q_net(one_hot(s)).argmax(-1)

    def learn(self, s, a, r, s2, done):
        q = self.q_net(one_hot(s)).gather(1, a[:, None]).squeeze(1)
        with torch.no_grad():
            bootstrap = self.target_net(one_hot(s2)).max(-1).values
            target = r + self.gamma * (1 - done) * bootstrap
        loss = F.smooth_l1_loss(q, target)
        self.updates += 1
        if self.updates % self.sync_every == 0:
            self.target_net.load_state_dict(self.q_net.state_dict())
            self.syncs += 1
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


if __name__ == "__main__":
    agent = DQNAgent()
    w0 = agent.q_net[0].weight.detach().clone()
    for _ in range(400):
        s = torch.randint(0, N_STATES - 1, (32,))
        a = torch.randint(0, N_ACTIONS, (32,))
        s2, r, done = transition(s, a)
        agent.learn(s, a, r, s2, done)
    assert agent.syncs == 40
    assert (agent.q_net[0].weight - w0).abs().max().item() > 1e-3
    greedy = agent.act(torch.arange(N_STATES - 1))
    assert bool((greedy == 1).all()), greedy
    print("k06_chain_dqn_agent: all checks passed")
