"""
expect: none
dynamic: dismiss
source: kinds check 23, kind 2 (written for this check)

A small DQN: the target Q-network is a deepcopy of the online one, averaged into by soft_update() from polyak.py,
and its bootstrap values are computed under torch.no_grad() as regression targets. Only the online network is in
the optimizer and its TD loss reaches it directly, so nothing is starved. The asserts show every online parameter
gets a nonzero gradient, the target has no grads, and the target moves only through the Polyak update.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from polyak import make_target, soft_update

torch.manual_seed(3)
OBS, ACTIONS, GAMMA, TAU = 6, 3, 0.99, 0.995

q_online = nn.Sequential(nn.Linear(OBS, 64), nn.ReLU(), nn.Linear(64, ACTIONS))
q_target = make_target(q_online)
opt = torch.optim.RMSprop(q_online.parameters(), lr=5e-4)


def td_update(obs, act, rew, next_obs, done):
    with torch.no_grad():
        next_best = q_online(next_obs).argmax(dim=1, keepdim=True)  # double-DQN action choice
        bootstrap = q_target(next_obs).gather(1, next_best).squeeze(1)
        y = rew + GAMMA * (1.0 - done) * bootstrap
    q_sa = q_online(obs).gather(1, act.unsqueeze(1)).squeeze(1)
    loss = F.smooth_l1_loss(q_sa, y)
    opt.zero_grad()
    loss.backward()
    grads = [p.grad.abs().sum().item() for p in q_online.parameters()]
    opt.step()
    soft_update(q_target, q_online, TAU)
    return grads


start_target = [p.clone() for p in q_target.parameters()]
for _ in range(10):
    b = 32
    grads = td_update(torch.randn(b, OBS), torch.randint(0, ACTIONS, (b,)), torch.randn(b),
                      torch.randn(b, OBS), (torch.rand(b) < 0.1).float())
    assert all(g > 0 for g in grads), grads

assert all(p.grad is None for p in q_target.parameters())
assert any(not torch.equal(a, b) for a, b in zip(start_target, q_target.parameters()))
# the target sits between its start and the online net (it is an average, not a copy)
gap = sum((t - o).abs().sum() for t, o in zip(q_target.parameters(), q_online.parameters()))
assert gap > 0
print("ok: online Q trains, target Q follows by Polyak averaging")
