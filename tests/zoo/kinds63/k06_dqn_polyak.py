"""
expect: none
dynamic: dismiss
source: none, invented

A DQN agent on a tiny chain MDP with a Polyak-averaged target network. `polyak_sync(target, online, tau)` walks
the Linear layers and writes `tgt.weight.data = tau * src.weight + (1 - tau) * tgt.weight` inside
`torch.no_grad()`. Only the online network is in the optimizer; the target network exists precisely to be a
slowly moving, gradient-free copy used to build TD targets (also under no_grad). Breaking the graph here is the
intent, not an accident: nothing upstream of the copy is supposed to learn from it. The asserts show the online
network receives gradients and its TD error falls, the target's parameters never get a grad, and the target
drifts towards the online weights after each sync, which is what Polyak averaging should do.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_STATES, N_ACTIONS, GAMMA = 6, 2, 0.9


class QNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(N_STATES, 64), nn.ReLU())
        self.q_head = nn.Linear(64, N_ACTIONS)

    def forward(self, obs):
        return self.q_head(self.trunk(obs))


def polyak_sync(target, online, tau):
    with torch.no_grad():
        for tgt, src in zip(target.modules(), online.modules()):
            if isinstance(tgt, nn.Linear):
                tgt.weight.data = tau * src.weight + (1 - tau) * tgt.weight
                tgt.bias.data = tau * src.bias + (1 - tau) * tgt.bias


def env_step(state, action):
    nxt = min(state + 1, N_STATES - 1) if action == 1 else max(state - 1, 0)
    reward = 1.0 if nxt == N_STATES - 1 else 0.0
    return nxt, reward


def one_hot(idx):
    return F.one_hot(torch.as_tensor(idx), N_STATES).float()


online = QNet()
target = copy.deepcopy(online)
opt = torch.optim.Adam(online.parameters(), lr=1e-2)

buffer = [(s, a, *env_step(s, a)) for s in range(N_STATES) for a in range(N_ACTIONS)]
s, a, s2, r = map(torch.tensor, zip(*buffer))
obs, next_obs, r = one_hot(s), one_hot(s2), r.float()

losses, gaps = [], []
for it in range(200):
    with torch.no_grad():
        td_target = r + GAMMA * target(next_obs).max(1).values
    q = online(obs).gather(1, a[:, None]).squeeze(1)
    loss = F.smooth_l1_loss(q, td_target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    gap_before = (target.q_head.weight - online.q_head.weight).norm().item()
    polyak_sync(target, online, tau=0.05)
    gap_after = (target.q_head.weight - online.q_head.weight).norm().item()
    gaps.append(gap_after <= gap_before)
    losses.append(loss.item())

assert online.q_head.weight.grad is not None and online.trunk[0].weight.grad.abs().sum() > 0
assert all(p.grad is None for p in target.parameters())
assert all(gaps)
assert sum(losses[-10:]) / 10 < losses[0]
greedy = online(one_hot(torch.arange(N_STATES))).argmax(1)
assert greedy[:-1].eq(1).all(), greedy
print("ok: online Q-net learns to move right; target net tracks it through the no_grad Polyak copy")
