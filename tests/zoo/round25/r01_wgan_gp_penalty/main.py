"""
expect: GL003 penalty.py:21
dynamic: confirm
source: https://github.com/caogang/wgan-gp/issues/4

A WGAN-GP port hit "does not require grad" when back-propagating the gradient
penalty on its own; the thread shows `gradients.requires_grad = True` tried as the
fix. Here the penalty object takes autograd.grad without create_graph, so the
penalty has no history, and a requires_grad_ switch silences the error. The lazy
penalty step then runs but leaves every critic gradient at zero; the asserts show
that, and that the create_graph variant gives the critic a real gradient.
"""
import copy

import torch
import torch.nn as nn

from penalty import LazyGradientPenalty, FixedGradientPenalty

torch.manual_seed(0)
torch.set_num_threads(1)


def make_critic():
    return nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 1))


class CriticTrainer:
    def __init__(self, critic, gen, penalty):
        self.critic = critic
        self.gen = gen
        self.penalty = penalty
        self.opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
        self.gp_grad_norms = []

    def step(self, it, real, z):
        fake = self.gen(z)
        loss = self.critic(fake.detach()).mean() - self.critic(real).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        if it % self.penalty.every == 0:
            self.opt.zero_grad()
            gp = self.penalty(self.critic, real, fake)
            gp.backward()
            norm = sum(float(p.grad.abs().sum()) if p.grad is not None else 0.0
                       for p in self.critic.parameters())
            self.gp_grad_norms.append(norm)
            self.opt.step()


gen = nn.Linear(4, 8)
critic = make_critic()
critic_ref = copy.deepcopy(critic)
data = torch.randn(64, 8) * 3.0 + 1.0
noise = torch.randn(64, 4)

buggy = CriticTrainer(critic, gen, LazyGradientPenalty())
fixed = CriticTrainer(critic_ref, gen, FixedGradientPenalty())
for it in range(6):
    buggy.step(it, data, noise)
    fixed.step(it, data, noise)

# the penalty step ran three times, yet it never produced a critic gradient
assert len(buggy.gp_grad_norms) == 3
assert all(n == 0.0 for n in buggy.gp_grad_norms), buggy.gp_grad_norms
# with create_graph the same penalty does reach the critic
assert all(n > 0.0 for n in fixed.gp_grad_norms), fixed.gp_grad_norms
print("ok", buggy.gp_grad_norms, fixed.gp_grad_norms)
