"""
expect: none
dynamic: dismiss
source: kind 3

A DQN trainer on a toy gridworld builds an online Q-network and a target Q-network as two
instances of one class; only the online network is given to the optimizer. The TD target uses
the target network's prediction after .detach(), as intended, and the target network is
refreshed by copying weights. After a few steps the online weights have changed, and the
target changes only at the periodic copy.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class GridQNet(nn.Module):
    def __init__(self, cells=25, actions=4):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(cells, 64), nn.ReLU(), nn.Linear(64, actions))

    def forward(self, obs):
        return self.body(obs)


class GridDQN:
    def __init__(self, gamma=0.95, sync_every=4):
        self.online = GridQNet()
        self.target = copy.deepcopy(self.online)
        self.opt = torch.optim.Adam(self.online.parameters(), lr=1e-3)
        self.gamma = gamma
        self.sync_every = sync_every
        self.updates = 0

    def learn(self, obs, act, rew, next_obs, done):
        q = self.online(obs).gather(1, act[:, None]).squeeze(1)
        best_next = self.target(next_obs).max(1).values.detach()
        td_target = rew + self.gamma * (1 - done) * best_next
        loss = F.smooth_l1_loss(q, td_target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.updates += 1
        if self.updates % self.sync_every == 0:
            self.target.load_state_dict(self.online.state_dict())
        return loss.item()


def main():
    torch.manual_seed(0)
    n = 32
    cells = torch.randint(0, 25, (n,))
    obs = F.one_hot(cells, 25).float()
    next_obs = F.one_hot((cells + 1) % 25, 25).float()
    act = torch.randint(0, 4, (n,))
    rew = (cells == 24).float()
    done = torch.zeros(n)

    agent = GridDQN()
    online_before = agent.online.body[0].weight.clone()
    target_before = agent.target.body[0].weight.clone()
    for _ in range(3):
        agent.learn(obs, act, rew, next_obs, done)
    assert not torch.equal(agent.online.body[0].weight, online_before)
    assert torch.equal(agent.target.body[0].weight, target_before)
    agent.learn(obs, act, rew, next_obs, done)
    assert torch.equal(agent.target.body[0].weight, agent.online.body[0].weight)
    print("ok: online network trains, target follows by copy")


if __name__ == "__main__":
    main()
