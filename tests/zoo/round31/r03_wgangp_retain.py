"""
expect: none
dynamic: dismiss
source: https://github.com/lucaayscough/Gravity/blob/main/Generator/loss.py

Look-alike from a StyleGAN-style audio GAN trainer: the critic step calls
`loss_disc.backward(retain_graph=True)` every iteration after a WGAN-GP
gradient penalty built with `create_graph=True`. The flag is wasteful but
harmless here: each step draws fresh noise and a fresh fake batch, nothing
from one iteration's graph is carried into the next, so the retained graph
is dropped when the attributes are overwritten. The asserts check that the
critic and generator both get gradients and that no graph node from an
earlier step is reachable from the current loss.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def gradient_penalty(critic, real, fake):
    eps = torch.rand(real.size(0), 1)
    mixed = (eps * real + (1 - eps) * fake).requires_grad_(True)
    score = critic(mixed)
    grad, = torch.autograd.grad(score.sum(), mixed, create_graph=True)
    return ((grad.norm(dim=1) - 1) ** 2).mean()


def graph_nodes(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        if type(fn).__name__ != "AccumulateGrad":   # parameter leaves are shared by design
            seen.add(fn)
        else:
            continue
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return seen


class Trainer:
    def __init__(self):
        self.netG = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
        self.netD = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
        self.opt_g = torch.optim.Adam(self.netG.parameters(), lr=1e-3, betas=(0.0, 0.9))
        self.opt_d = torch.optim.Adam(self.netD.parameters(), lr=1e-3, betas=(0.0, 0.9))

    def _set_grad_flag(self, net, flag):
        for p in net.parameters():
            p.requires_grad = flag

    def train_critic(self, real):
        self._set_grad_flag(self.netD, True)
        self._set_grad_flag(self.netG, False)
        self.netD.zero_grad()
        fake = self.netG(torch.randn(real.size(0), 4))
        gp = gradient_penalty(self.netD, real, fake)
        self.loss_disc = -(self.netD(real).mean() - self.netD(fake).mean()) + 10 * gp
        self.loss_disc.backward(retain_graph=True)
        self.opt_d.step()

    def train_generator(self, n):
        self._set_grad_flag(self.netD, False)
        self._set_grad_flag(self.netG, True)
        self.netG.zero_grad()
        self.loss_gen = -self.netD(self.netG(torch.randn(n, 4))).mean()
        self.loss_gen.backward()
        self.opt_g.step()


tr = Trainer()
previous = None
for step in range(6):
    real = torch.randn(32, 2) * 0.3 + torch.tensor([2.0, -1.0])
    tr.train_critic(real)
    nodes = graph_nodes(tr.loss_disc)
    if previous is not None:
        assert not (nodes & previous)          # no node shared with an old iteration
    previous = nodes
    # (the critic's last bias cancels in mean(real) - mean(fake); check weights)
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in tr.netD.parameters() if p.dim() > 1)
    tr.train_generator(32)
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in tr.netG.parameters())
print("ok: retain_graph per critic step does not chain iterations")
