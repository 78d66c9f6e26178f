"""
expect: none
dynamic: dismiss
source: none, invented

DQN on a 10-state chain MDP (move left/right, reward 1 at the right end).  `QNetwork` in qnet.py has a
`bootstrap` method decorated with `@torch.no_grad()` that computes the TD target
r + gamma * max_a Q(s', a).  It is only ever called on the target network, a frozen deep copy of the
online network that is re-synced every 50 updates, so computing its output without a graph is exactly
what DQN wants; the online network is trained through its ordinary `forward`.  The asserts check that
the online network's weights get gradient and change, that the target network has no gradient and
only changes at sync time, and that the learned greedy policy moves right in every state.
"""
import copy
import random

import torch
import torch.nn.functional as F

from qnet import QNetwork

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)

N, GAMMA = 10, 0.9


def env_step(s, a):
    s2 = min(s + 1, N - 1) if a == 1 else max(s - 1, 0)
    done = s2 == N - 1
    return s2, float(done), float(done)


online = QNetwork(N, 2)
target_net = copy.deepcopy(online).requires_grad_(False)
opt = torch.optim.Adam(online.parameters(), lr=1e-3)
replay = []
for _ in range(3000):
    s, a = random.randrange(N - 1), random.randrange(2)
    s2, r, d = env_step(s, a)
    replay.append((s, a, r, s2, d))

for update in range(1500):
    batch = random.sample(replay, 64)
    s, a, r, s2, d = (torch.tensor(col) for col in zip(*batch))
    td_target = target_net.bootstrap(r.float(), s2, d.float(), GAMMA)
    q = online(s).gather(1, a.unsqueeze(1)).squeeze(1)
    loss = F.smooth_l1_loss(q, td_target)
    opt.zero_grad()
    loss.backward()
    assert all(p.grad is not None for p in online.parameters())
    assert all(p.grad is None for p in target_net.parameters())
    before_step = {k: v.clone() for k, v in target_net.state_dict().items()}
    opt.step()
    assert all(torch.equal(before_step[k], v) for k, v in target_net.state_dict().items())
    if update % 50 == 49:
        target_net.load_state_dict(online.state_dict())

with torch.no_grad():
    greedy = online(torch.arange(N - 1)).argmax(-1)
assert bool((greedy == 1).all()), greedy
print("k09: frozen target bootstrap; greedy policy moves right everywhere")
