"""expect: GL004 43
dynamic: confirm
source: https://github.com/dgriff777/rl_a3c_pytorch/issues/8

A recurrent actor-critic agent whose train_rollout() method advances self.hx from
its previous value and then backpropagates.  The A3C code detaches hx/cx at the
start of each rollout; without that, retain_graph=True is needed and every
rollout's backward reaches back through all previous rollouts.
"""
import torch
import torch.nn as nn
from torch.distributions import Categorical


def graph_size(t):
    seen, todo = set(), [t.grad_fn]
    while todo:
        fn = todo.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            todo.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class Agent:
    def __init__(self, obs_dim=6, hid=32, n_act=3, lr=1e-3):
        self.cell = nn.GRUCell(obs_dim, hid)
        self.pi, self.v = nn.Linear(hid, n_act), nn.Linear(hid, 1)
        self.params = [*self.cell.parameters(), *self.pi.parameters(), *self.v.parameters()]
        self.hx, self.lr = torch.zeros(1, hid), lr

    def train_rollout(self, observations, rewards):
        policy_loss = value_loss = 0.0
        for obs, r in zip(observations, rewards):
            self.hx = self.cell(obs.unsqueeze(0), self.hx)
            dist = Categorical(logits=self.pi(self.hx))
            adv = r - self.v(self.hx).squeeze()
            policy_loss = policy_loss - dist.log_prob(dist.sample()) * adv.detach()
            value_loss = value_loss + adv.pow(2)
        loss = (policy_loss + 0.5 * value_loss).sum()
        for p in self.params:
            p.grad = None
        loss.backward(retain_graph=True)
        for p in self.params:  # SharedRMSprop-style update on .data
            p.data.add_(p.grad, alpha=-self.lr)
        return graph_size(loss)


torch.manual_seed(0)
agent = Agent()
sizes = [agent.train_rollout(torch.randn(5, 6), torch.rand(5)) for _ in range(5)]
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
print("graph grows:", sizes)
