"""
expect: none
dynamic: dismiss
source: none, invented

A small DQN on a ten-state chain walk. The online Q-network is optimised by hand: after `backward` each
parameter is replaced with `p.data = p - lr * p.grad`, a plain SGD step written out by the user. The
target network is kept as a Polyak average: `soft_update` writes `tgt.data = (1 - tau) * tgt.data +
tau * src.data` for every parameter pair. Both `.data =` assignments update a parameter from itself or
from another network's raw values on purpose; no gradient is meant to flow through them, and the target
network is not in any optimisation. The asserts show the TD loss falls, the online weights move, the target
network follows the online network (their distance shrinks once the online net stops moving) and the target
parameters never get a gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_STATES, N_ACTIONS, GAMMA = 10, 2, 0.9


def env_step(state, action):
    nxt = min(state + 1, N_STATES - 1) if action == 1 else max(state - 1, 0)
    reward = 1.0 if nxt == N_STATES - 1 else 0.0
    done = nxt == N_STATES - 1
    return nxt, reward, done


def one_hot(s):
    return F.one_hot(torch.as_tensor(s), N_STATES).float()


class QNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, N_ACTIONS))

    def forward(self, obs):
        return self.net(obs)


def soft_update(target, source, tau):
    for tgt, src in zip(target.parameters(), source.parameters()):
        tgt.data = (1.0 - tau) * tgt.data + tau * src.data


def collect(n=512):
    s = torch.randint(0, N_STATES - 1, (n,))
    a = torch.randint(0, N_ACTIONS, (n,))
    out = [env_step(int(si), int(ai)) for si, ai in zip(s, a)]
    s2 = torch.tensor([o[0] for o in out])
    r = torch.tensor([o[1] for o in out])
    d = torch.tensor([float(o[2]) for o in out])
    return s, a, r, s2, d


def td_loss(q_online, q_target, batch):
    s, a, r, s2, d = batch
    q = q_online(one_hot(s)).gather(1, a[:, None]).squeeze(1)
    with torch.no_grad():
        target = r + GAMMA * (1 - d) * q_target(one_hot(s2)).max(1).values
    return F.mse_loss(q, target)


def distance(m1, m2):
    return sum((a - b).pow(2).sum() for a, b in zip(m1.parameters(), m2.parameters())).item()


def main():
    q_online, q_target = QNet(), QNet()
    q_target.load_state_dict(q_online.state_dict())
    for p in q_target.parameters():
        p.requires_grad_(False)
    replay = collect()
    online0 = [p.detach().clone() for p in q_online.parameters()]
    lr, tau = 0.1, 0.05
    losses = []
    for it in range(400):
        idx = torch.randint(0, len(replay[0]), (64,))
        batch = tuple(t[idx] for t in replay)
        loss = td_loss(q_online, q_target, batch)
        q_online.zero_grad()
        loss.backward()
        for p in q_online.parameters():
            p.data = p - lr * p.grad
        soft_update(q_target, q_online, tau)
        losses.append(loss.item())

    assert any(not torch.equal(a, p) for a, p in zip(online0, q_online.parameters()))
    assert all(p.grad is None for p in q_target.parameters())
    # greedy policy should walk right from every state
    greedy = q_online(torch.eye(N_STATES)).argmax(1)[:-1]
    assert (greedy == 1).float().mean() > 0.8, greedy

    gap_before = distance(q_online, q_target)
    for _ in range(100):
        soft_update(q_target, q_online, tau)
    assert distance(q_online, q_target) < 0.05 * gap_before + 1e-12
    assert sum(losses[-50:]) < sum(losses[:50])
    print("k03: online net trains by hand-written SGD, target follows by Polyak averaging")


if __name__ == "__main__":
    main()
