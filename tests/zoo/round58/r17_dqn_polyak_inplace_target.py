"""
expect: none
dynamic: dismiss
source: https://github.com/ufal/npfl122/pull/81

In this pull request to a reinforcement-learning course's PyTorch Q-network template,
the contributor suggests keeping the online and target networks in one class and adds
a soft (Polyak/EMA) target update written as
`target_param.data.mul_(1 - tau); torch.add(target_param.data, param.data, alpha=tau,
out=target_param.data)` inside `torch.no_grad()`. In-place edits through `.data` on
parameters look like the classic way to corrupt saved tensors, but here nothing saved
them: the target network is only ever evaluated under no_grad to build the TD target,
its parameters are not in the optimizer, and the update runs after the online
network's backward and step. The asserts run a small DQN loop with this update and
check that the online network trains (TD error drops), that the target network's
parameters never receive a gradient, that every soft update shrinks the online/target
distance by the expected factor (1 - tau), and that no in-place error is raised.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

S, A, GAMMA, TAU = 4, 3, 0.9, 0.05


class Network:
    def __init__(self):
        self._model = nn.Sequential(nn.Linear(S, 64), nn.ReLU(), nn.Linear(64, A))
        self._target = copy.deepcopy(self._model)
        self._optimizer = torch.optim.Adam(self._model.parameters(), lr=1e-3)

    def train_step(self, s, a, r, s_next, done):
        with torch.no_grad():
            target_q = r + GAMMA * (1 - done) * self._target(s_next).max(1).values
        q = self._model(s).gather(1, a[:, None]).squeeze(1)
        loss = F.mse_loss(q, target_q)
        self._optimizer.zero_grad()
        loss.backward()
        self._optimizer.step()
        return loss.item()

    def soft_update_weights(self, tau):
        with torch.no_grad():
            for param, target_param in zip(self._model.parameters(), self._target.parameters()):
                target_param.data.mul_(1 - tau)
                torch.add(target_param.data, param.data, alpha=tau, out=target_param.data)


def batch(n=64):
    s = torch.randn(n, S)
    a = torch.randint(0, A, (n,))
    r = (s[:, 0] > 0).float()
    return s, a, r, s + 0.1 * torch.randn(n, S), torch.zeros(n)


def distance(net):
    return sum((p - q).abs().sum().item()
               for p, q in zip(net._model.parameters(), net._target.parameters()))


if __name__ == "__main__":
    net = Network()
    data = batch(512)
    losses = []
    for step in range(300):
        idx = torch.randint(0, 512, (64,))
        losses.append(net.train_step(*(x[idx] for x in data)))
        d_before = distance(net)
        net.soft_update_weights(TAU)
        d_after = distance(net)
        assert abs(d_after - (1 - TAU) * d_before) < 1e-3 * max(1.0, d_before)
    assert sum(losses[-20:]) < sum(losses[:20])
    assert all(p.grad is None for p in net._target.parameters())
    assert distance(net) > 0
    print("ok: in-place Polyak update of the target net is safe; the online Q-net trains")
