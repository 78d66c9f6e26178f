"""expect: none
dynamic: dismiss
source: https://github.com/pytorch/examples/blob/main/distributed/rpc/rl/main.py

Transitions are stored as tuples and the update pulls columns back out by position and
packs them with torch.tensor, which looks like the classic copy bug. Here, though, every
packed column holds plain Python numbers (rewards, done flags, integer actions) or NumPy
rows, none of which has autograd history to lose. The Q-values are recomputed from the
network inside the update, so the online network is trained normally.
"""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)

qnet = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.SGD(qnet.parameters(), lr=0.05)

store = []
for _ in range(40):
    s = np.random.randn(4).astype(np.float32)
    a = random.randrange(2)
    r = float(np.random.rand())
    s2 = np.random.randn(4).astype(np.float32)
    done = random.random() < 0.1
    store.append((s, a, r, s2, done))

batch = random.sample(store, 16)
states = torch.tensor(np.stack([row[0] for row in batch]))
actions = torch.tensor([row[1] for row in batch])
rewards = torch.tensor([row[2] for row in batch], dtype=torch.float32)
next_states = torch.tensor(np.stack([row[3] for row in batch]))
dones = torch.tensor([row[4] for row in batch], dtype=torch.float32)

with torch.no_grad():
    target = rewards + 0.99 * (1 - dones) * qnet(next_states).max(1).values
chosen = qnet(states).gather(1, actions.unsqueeze(1)).squeeze(1)
loss = F.smooth_l1_loss(chosen, target)

before = qnet[2].weight.detach().clone()
opt.zero_grad()
loss.backward()
opt.step()

assert all(p.grad is not None for p in qnet.parameters())
assert not torch.equal(before, qnet[2].weight)
print("q-network trained, loss", loss.item())
