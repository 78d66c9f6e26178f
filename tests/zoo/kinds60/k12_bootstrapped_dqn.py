"""
expect: none
dynamic: dismiss
source: none, invented

Bootstrapped DQN on a small chain MDP: a shared torso feeds K Q-value heads, and each transition carries a
bootstrap mask saying which heads train on it. `learn` builds one masked TD loss per head in a loop and keeps
them in `head_losses`; then it zeroes the single optimizer (torso and heads), calls `backward` on each head
loss in turn (retaining the shared torso graph until the last one, and scaling by 1/K as in the paper's
gradient normalization), and only after all backwards calls `self.optimizer.step()`. The step comes after the
per-head backwards, so nothing the pending graphs need is changed in place; the target network is a separate
copy evaluated under no_grad. The asserts check that the torso and every head move, the TD loss falls, and the
greedy policy of every head learns to walk right to the rewarding end of the chain.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_STATES, N_ACTIONS, N_HEADS = 10, 2, 5


class BootstrappedQNet(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.torso = nn.Sequential(nn.Linear(N_STATES, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.heads = nn.ModuleList([nn.Linear(hidden, N_ACTIONS) for _ in range(N_HEADS)])

    def forward(self, states):
        h = self.torso(states)
        return torch.stack([head(h) for head in self.heads], dim=1)


class BootstrappedDQN:
    def __init__(self, gamma=0.9, lr=1e-3):
        self.q = BootstrappedQNet()
        self.q_target = copy.deepcopy(self.q)
        self.optimizer = torch.optim.Adam(self.q.parameters(), lr=lr)
        self.gamma = gamma

    def learn(self, s, a, r, s2, done, mask):
        q_all = self.q(s)
        with torch.no_grad():
            next_q = self.q_target(s2).max(dim=-1).values
        head_losses = []
        for k in range(N_HEADS):
            q_sa = q_all[:, k].gather(1, a[:, None]).squeeze(1)
            target = r + self.gamma * (1 - done) * next_q[:, k]
            td = F.smooth_l1_loss(q_sa, target, reduction="none")
            head_losses.append((td * mask[:, k]).sum() / mask[:, k].sum().clamp(min=1.0))

        self.optimizer.zero_grad()
        for k, loss in enumerate(head_losses):
            (loss / N_HEADS).backward(retain_graph=k < N_HEADS - 1)
        self.optimizer.step()
        return sum(l.item() for l in head_losses) / N_HEADS

    def sync_target(self):
        self.q_target.load_state_dict(self.q.state_dict())


def one_hot(states):
    return F.one_hot(states, N_STATES).float()


def chain_transitions(n):
    s = torch.randint(0, N_STATES, (n,))
    a = torch.randint(0, N_ACTIONS, (n,))
    s2 = (s + torch.where(a == 1, 1, -1)).clamp(0, N_STATES - 1)
    r = (s2 == N_STATES - 1).float() - 0.01
    done = (s2 == N_STATES - 1).float()
    mask = torch.bernoulli(torch.full((n, N_HEADS), 0.5))
    return one_hot(s), a, r, one_hot(s2), done, mask


def main():
    agent = BootstrappedDQN()
    before = [p.detach().clone() for p in agent.q.parameters()]
    losses = []
    for it in range(3000):
        losses.append(agent.learn(*chain_transitions(64)))
        if it % 100 == 0:
            agent.sync_target()

    assert not any(torch.equal(a, b) for a, b in zip(before, agent.q.parameters()))
    with torch.no_grad():
        greedy = agent.q(one_hot(torch.arange(N_STATES - 1))).argmax(-1)
    assert bool((greedy == 1).all()), greedy
    early, late = sum(losses[:100]) / 100, sum(losses[-100:]) / 100
    assert late < early, (early, late)
    print(f"td loss {early:.4f} -> {late:.4f}; every head walks right in all {N_STATES - 1} states")


if __name__ == "__main__":
    main()
