"""
expect: none
dynamic: dismiss
source: https://github.com/NVlabs/VAEBM/issues/2

VAEBM's training loop freezes the energy and VAE parameters (requires_grad False) while it
runs Langevin dynamics, and a user asked why the sampled energy is backpropagated at all.
The reply: the backward there only moves the samples; the real loss is computed later with
the parameters re-enabled. This look-alike keeps that shape: a sampler toggles the
parameters off, sets requires_grad on a detached sample, and returns a detached negative;
the trainer turns the parameters back on and the CD loss trains the energy net. The asserts
show sampling leaves no parameter gradient, and the loss step gives every energy weight a
gradient and moves it.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def set_requires_grad(module, flag):
    for p in module.parameters():
        p.requires_grad = flag


class Energy(nn.Module):
    def __init__(self, d=6):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d, 32), nn.SiLU(), nn.Linear(32, 32), nn.SiLU())
        self.head = nn.Linear(32, 1)

    def forward(self, x):
        return self.head(self.body(x)).squeeze(-1)


class LangevinSampler:
    def __init__(self, steps=15, step_size=0.05, noise=0.005):
        self.steps, self.step_size, self.noise = steps, step_size, noise

    def __call__(self, energy, x_init):
        set_requires_grad(energy, False)
        x = x_init.detach()
        for _ in range(self.steps):
            x.requires_grad_(True)
            e = energy(x).sum()
            e.backward()
            with torch.no_grad():
                x = x - self.step_size * x.grad + self.noise * torch.randn_like(x)
        set_requires_grad(energy, True)
        return x.detach()


class EBMTrainer:
    def __init__(self, energy, lr=1e-2):
        self.energy = energy
        self.sampler = LangevinSampler()
        self.opt = torch.optim.Adam(energy.parameters(), lr=lr)

    def step(self, x_pos):
        self.opt.zero_grad()
        x_neg = self.sampler(self.energy, torch.randn_like(x_pos))
        sampled_grads = [p.grad for p in self.energy.parameters()]
        loss = self.energy(x_pos).mean() - self.energy(x_neg).mean()
        loss = loss + 0.1 * (self.energy(x_pos) ** 2).mean()
        loss.backward()
        grads = [p.grad.clone() for p in self.energy.parameters()]
        self.opt.step()
        return x_neg, sampled_grads, grads


energy = Energy()
trainer = EBMTrainer(energy)
x_pos = torch.randn(64, 6) * 0.3 + 1.0
before = [p.detach().clone() for p in energy.parameters()]
for _ in range(5):
    x_neg, sampled_grads, grads = trainer.step(x_pos)
    assert x_neg.grad_fn is None and not x_neg.requires_grad
    assert all(g is None or g.abs().sum() == 0 for g in sampled_grads)
    assert all(g.abs().sum() > 0 for g in grads)
for p, p0 in zip(energy.parameters(), before):
    assert p.requires_grad
    assert not torch.equal(p, p0), "energy weight did not train"
print("frozen-parameter Langevin sampling, then CD loss trains every energy weight")
