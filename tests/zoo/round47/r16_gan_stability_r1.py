"""
expect: none
dynamic: dismiss
source: https://github.com/LMescheder/GAN_stability/blob/master/gan_training/train.py

A GAN trainer in the style of the GAN-stability code: the discriminator step samples fakes under torch.no_grad()
and then calls requires_grad_() on them, marks the real batch with requires_grad_() as well, backpropagates the
real-data loss with retain_graph=True so that the R1 penalty (the squared gradient of D with respect to its input,
built with create_graph=True) can reuse the graph, and an EMA copy of the generator is updated with copy_() after
the parameters were switched off with requires_grad_(False). None of this cuts a path the code wants to train:
the generator is not supposed to learn in the discriminator step, requires_grad_() on the fake only serves the
penalty, and retain_graph keeps one iteration's graph for its second backward. The asserts check that each player
gets gradients in its own step only, that the penalty is non-zero and reaches D, and that the EMA generator
tracks the trained one.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import autograd

torch.manual_seed(0)
torch.set_num_threads(1)


def toggle_grad(model, requires_grad):
    for p in model.parameters():
        p.requires_grad_(requires_grad)


def compute_grad2(d_out, x_in):
    grad_dout = autograd.grad(outputs=d_out.sum(), inputs=x_in, create_graph=True, retain_graph=True)[0]
    return grad_dout.pow(2).reshape(x_in.size(0), -1).sum(1)


def update_average(model_tgt, model_src, beta):
    toggle_grad(model_src, False)
    toggle_grad(model_tgt, False)
    src = dict(model_src.named_parameters())
    for name, p_tgt in model_tgt.named_parameters():
        p_tgt.copy_(beta * p_tgt + (1.0 - beta) * src[name])


class Trainer:
    def __init__(self, generator, discriminator, g_optimizer, d_optimizer, reg_param=10.0):
        self.generator = generator
        self.discriminator = discriminator
        self.g_optimizer = g_optimizer
        self.d_optimizer = d_optimizer
        self.reg_param = reg_param

    @staticmethod
    def compute_loss(d_out, target):
        return F.binary_cross_entropy_with_logits(d_out, d_out.new_full(d_out.size(), float(target)))

    def generator_trainstep(self, z):
        toggle_grad(self.generator, True)
        toggle_grad(self.discriminator, False)
        self.g_optimizer.zero_grad()
        gloss = self.compute_loss(self.discriminator(self.generator(z)), 1)
        gloss.backward()
        self.g_optimizer.step()
        return gloss.item()

    def discriminator_trainstep(self, x_real, z):
        toggle_grad(self.generator, False)
        toggle_grad(self.discriminator, True)
        self.d_optimizer.zero_grad()

        x_real.requires_grad_()
        d_real = self.discriminator(x_real)
        dloss_real = self.compute_loss(d_real, 1)
        dloss_real.backward(retain_graph=True)
        reg = self.reg_param * compute_grad2(d_real, x_real).mean()
        reg.backward()

        with torch.no_grad():
            x_fake = self.generator(z)
        x_fake.requires_grad_()
        d_fake = self.discriminator(x_fake)
        dloss_fake = self.compute_loss(d_fake, 0)
        dloss_fake.backward()

        self.d_optimizer.step()
        toggle_grad(self.discriminator, False)
        return (dloss_real + dloss_fake).item(), reg.item()


G = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
D = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 1))
G_ema = copy.deepcopy(G)
trainer = Trainer(G, D, torch.optim.Adam(G.parameters(), lr=1e-3), torch.optim.Adam(D.parameters(), lr=1e-3))


def real_batch(n=64):
    return torch.randn(n, 2) * 0.3 + torch.tensor([2.0, -1.0])


g0 = [p.detach().clone() for p in G.parameters()]
d0 = [p.detach().clone() for p in D.parameters()]
dloss, reg = trainer.discriminator_trainstep(real_batch(), torch.randn(64, 4))
assert reg > 0.0
assert all(p.grad is None for p in G.parameters())
assert all(torch.equal(a, b) for a, b in zip(g0, G.parameters()))
assert any(not torch.equal(a, b) for a, b in zip(d0, D.parameters()))

toggle_grad(D, True)
x = real_batch().requires_grad_()
penalty = compute_grad2(D(x), x).mean()
penalty_grads = autograd.grad(penalty, list(D.parameters()), allow_unused=True)
assert any(g is not None and g.abs().sum() > 0 for g in penalty_grads)
toggle_grad(D, False)

d1 = [p.detach().clone() for p in D.parameters()]
trainer.generator_trainstep(torch.randn(64, 4))
assert all(p.grad is not None for p in G.parameters())
assert any(not torch.equal(a, b) for a, b in zip(g0, G.parameters()))
assert all(torch.equal(a, b) for a, b in zip(d1, D.parameters()))

ema0 = [p.detach().clone() for p in G_ema.parameters()]
for _ in range(30):
    trainer.discriminator_trainstep(real_batch(), torch.randn(64, 4))
    trainer.generator_trainstep(torch.randn(64, 4))
    update_average(G_ema, G, beta=0.9)
dist_before = sum((a - b).pow(2).sum() for a, b in zip(ema0, G.parameters()))
dist_after = sum((a - b).pow(2).sum() for a, b in zip(G_ema.parameters(), G.parameters()))
assert dist_after < dist_before
print(f"D loss {dloss:.3f}, R1 {reg:.4f}; EMA distance to G {dist_before.item():.4f} -> {dist_after.item():.4f}")
