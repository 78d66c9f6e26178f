"""
expect: none
dynamic: dismiss
source: https://github.com/VITA-Group/DeblurGANv2/issues/19

A DeblurGAN-v2 style trainer: the generator restores a blurred batch, _update_d() computes the
relativistic discriminator loss on the detached restoration, calls
loss_D.backward(retain_graph=True) and steps the discriminator, then the generator loss
(content L1 plus the relativistic adversarial term, evaluated with a fresh discriminator
pass) is backpropagated. It looks like a carried-graph leak (retain_graph=True inside the
training loop) next to a .detach() and a pool built from .data, but nothing carries history
from one iteration to the next: the retained graph belongs to this iteration's D loss and is
dropped when the loss object is overwritten, the pools hold plain score values used as a
baseline, and the detach only keeps the D step off the generator. The asserts check that
both networks get gradients and move, that an iteration's retained D graph is freed after
the next iteration, and that the D graph has the same size every iteration.
"""
import gc
import weakref

import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import RelativisticDiscLossLS

torch.manual_seed(0)
torch.set_num_threads(1)


class Restorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 3, 3, padding=1))

    def forward(self, x):
        return torch.clamp(x + self.body(x), -1, 1)


class PatchD(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(16, 1, 4, 2, 1))

    def forward(self, x):
        return self.net(x)


def graph_size(fn):
    seen, stack = set(), [fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(n for n, _ in node.next_functions)
    return len(seen)


class Trainer:
    def __init__(self, adv_lambda=0.001):
        self.netG, self.netD = Restorer(), PatchD()
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=1e-4)
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=1e-4)
        self.adv = RelativisticDiscLossLS()
        self.adv_lambda = adv_lambda

    def _update_d(self, outputs, targets):
        self.optimizer_D.zero_grad()
        loss_D = self.adv_lambda * self.adv(self.netD, outputs, targets)
        loss_D.backward(retain_graph=True)
        self.optimizer_D.step()
        return loss_D.item()

    def train_step(self, inputs, targets):
        outputs = self.netG(inputs)
        loss_D = self._update_d(outputs, targets)
        self.optimizer_G.zero_grad()
        loss_content = F.l1_loss(outputs, targets)
        loss_adv = self.adv.get_g_loss(self.netD, outputs, targets)
        loss_G = loss_content + self.adv_lambda * loss_adv
        loss_G.backward()
        self.optimizer_G.step()
        return loss_G.item(), loss_D


trainer = Trainer()
sharp = torch.rand(4, 3, 16, 16) * 2 - 1
blurred = F.avg_pool2d(sharp, 3, 1, 1)

g0 = trainer.netG.body[0].weight.detach().clone()
d0 = trainer.netD.net[0].weight.detach().clone()
refs, sizes = [], []
for it in range(6):
    loss_G, loss_D = trainer.train_step(blurred, sharp)
    refs.append(weakref.ref(trainer.adv.loss_D))
    sizes.append(graph_size(trainer.adv.loss_D.grad_fn))
    gc.collect()
    assert all(r() is None for r in refs[:-1]), "an old iteration's D graph is still alive"
    assert all(item.grad_fn is None for item in trainer.adv.fake_pool.items)

assert len(set(sizes)) == 1, sizes
assert all(p.grad is not None for p in trainer.netG.parameters())
assert all(p.grad is not None for p in trainer.netD.parameters())
assert not torch.equal(g0, trainer.netG.body[0].weight) and not torch.equal(d0, trainer.netD.net[0].weight)
print(f"6 iterations: G loss {loss_G:.4f}, D loss {loss_D:.6f}, D graph size {sizes[0]} every step")
