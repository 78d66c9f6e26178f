"""
expect: GL001 41
dynamic: confirm
source: kinds check 29, kind 7

A policy network adds an activation-norm regulariser (a module whose
forward takes any number of tensors) to its policy-gradient loss, but
hands it detached hidden activations, so the penalty shows up in the
loss value and contributes nothing to any gradient.
"""
import torch
import torch.nn as nn


class NormPenalty(nn.Module):
    def __init__(self, weight):
        super().__init__()
        self.weight = weight

    def forward(self, *tensors):
        total = 0.0
        for t in tensors:
            total = total + t.pow(2).sum(-1).mean()
        return self.weight * total


class Policy(nn.Module):
    def __init__(self, obs_dim, n_actions, reg_weight):
        super().__init__()
        self.l1 = nn.Linear(obs_dim, 32)
        self.l2 = nn.Linear(32, 32)
        self.pi = nn.Linear(32, n_actions)
        self.reg = NormPenalty(reg_weight)

    def loss(self, obs, actions, advantages):
        h1 = torch.tanh(self.l1(obs))
        h2 = torch.tanh(self.l2(h1))
        logp = torch.log_softmax(self.pi(h2), -1)
        chosen = logp.gather(1, actions[:, None]).squeeze(1)
        pg = -(chosen * advantages).mean()
        return pg + self.reg(h1.detach(), h2.detach())


def grads(reg_weight):
    torch.manual_seed(0)
    pol = Policy(6, 3, reg_weight)
    obs = torch.randn(10, 6)
    actions = torch.randint(0, 3, (10,))
    adv = torch.randn(10)
    loss = pol.loss(obs, actions, adv)
    loss.backward()
    return [p.grad.clone() for p in pol.parameters()], loss.item()


g_on, l_on = grads(0.5)
g_off, l_off = grads(0.0)
assert l_on > l_off
for a, b in zip(g_on, g_off):
    assert torch.equal(a, b)
print("ok", l_on, l_off)
