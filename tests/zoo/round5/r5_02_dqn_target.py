"""source: https://github.com/philtabor/Deep-Q-Learning-Paper-To-Code/issues/16

DQN update on replay batches: the TD target is computed from a separate target network
inside torch.no_grad(), as the issue recommends. The cut is intended (the target network is
synced by copying weights, never trained) and the online Q-network still gets gradients.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, n_actions))

    def forward(self, obs):
        return self.body(obs)


torch.manual_seed(0)
online = QNet(4, 2)
target_net = copy.deepcopy(online)
opt = torch.optim.RMSprop(online.parameters(), lr=1e-3)
gamma, batch = 0.99, 16
w_before = online.body[0].weight.detach().clone()

for step in range(20):
    obs, next_obs = torch.randn(batch, 4), torch.randn(batch, 4)
    actions = torch.randint(0, 2, (batch,))
    rewards = torch.randn(batch)
    dones = (torch.rand(batch) < 0.1).float()

    q_pred = online(obs).gather(1, actions.unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        q_next = target_net(next_obs).max(dim=1).values
        q_target = rewards + gamma * q_next * (1.0 - dones)
    loss = F.smooth_l1_loss(q_pred, q_target)

    opt.zero_grad()
    loss.backward()
    assert all(p.grad is not None for p in online.parameters())
    opt.step()
    if step % 10 == 9:
        target_net.load_state_dict(online.state_dict())

assert not torch.equal(online.body[0].weight, w_before)
assert all(p.grad is None for p in target_net.parameters())
print("ok: online Q-network trains")
