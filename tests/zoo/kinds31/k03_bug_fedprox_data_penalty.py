"""
expect: GL001 27
dynamic: confirm
source: kinds check 31, kind 2

A FedProx-style client trainer adds a proximal term pulling its weights toward
the server snapshot, but builds it from `p.data`. The term changes the printed
loss value and contributes nothing to any parameter's gradient.
"""
import copy
import torch
import torch.nn as nn

torch.manual_seed(0)


class ClientTrainer:
    def __init__(self, net, mu=0.5):
        self.net = net
        self.global_snapshot = [p.detach().clone() for p in net.parameters()]
        self.mu = mu
        self.opt = torch.optim.SGD(net.parameters(), lr=0.1)

    def proximal(self):
        total = 0.0
        for p, g in zip(self.net.parameters(), self.global_snapshot):
            total = total + (p.data - g).pow(2).sum()
        return 0.5 * self.mu * total

    def loss(self, x, y, with_prox=True):
        task = nn.functional.mse_loss(self.net(x), y)
        return task + self.proximal() if with_prox else task

    def step(self, x, y):
        self.opt.zero_grad()
        l = self.loss(x, y)
        l.backward()
        self.opt.step()
        return l.item()


net = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Linear(8, 1))
trainer = ClientTrainer(net)
x, y = torch.randn(32, 6), torch.randn(32, 1)
for _ in range(3):
    trainer.step(x, y)


def grads(with_prox):
    net.zero_grad()
    trainer.loss(x, y, with_prox).backward()
    return [p.grad.clone() for p in net.parameters()]


assert trainer.proximal().item() > 0
for a, b in zip(grads(True), grads(False)):
    assert torch.equal(a, b), "proximal term should add no gradient"
print("ok: proximal term is dead")
