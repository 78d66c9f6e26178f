"""
expect: GL001 50
dynamic: confirm
source: kinds check 24, kind 7 (written for this check)

A Lightning-style WGAN for sensor sequences samples `fake = self.generator(z).detach()` once at
the top of `training_step` and reuses it in both the critic branch and the generator branch,
so the generator loss only reaches the critic; the generator has its own optimizer but never
gets a gradient. The asserts (run through a tiny manual trainer) show the generator's grads are
None and its weights unchanged, while a separately written module trains it.
"""
import torch
import torch.nn as nn

torch.set_num_threads(1)
torch.manual_seed(0)


class StepModule(nn.Module):
    def configure_optimizers(self):
        raise NotImplementedError

    def training_step(self, batch, batch_idx, optimizer_idx):
        raise NotImplementedError


def fit(module, batches):
    optimizers = module.configure_optimizers()
    for batch_idx, batch in enumerate(batches):
        for opt_idx, opt in enumerate(optimizers):
            opt.zero_grad()
            module.training_step(batch, batch_idx, opt_idx).backward()
            opt.step()


class SensorWGAN(StepModule):
    def __init__(self, z_dim=8, length=24):
        super().__init__()
        self.z_dim = z_dim
        self.generator = nn.Sequential(nn.Linear(z_dim, 32), nn.ReLU(), nn.Linear(32, length))
        self.critic = nn.Sequential(nn.Conv1d(1, 8, 5, padding=2), nn.LeakyReLU(0.2),
                                    nn.Flatten(), nn.Linear(8 * length, 1))

    def configure_optimizers(self):
        return [torch.optim.RMSprop(self.critic.parameters(), lr=5e-4),
                torch.optim.RMSprop(self.generator.parameters(), lr=5e-4)]

    def training_step(self, batch, batch_idx, optimizer_idx):
        z = torch.randn(batch.size(0), self.z_dim)
        fake = self.generator(z).detach()
        if optimizer_idx == 0:
            return self.critic(fake[:, None]).mean() - self.critic(batch[:, None]).mean()
        return -self.critic(fake[:, None]).mean()


class SensorWGANFixed(SensorWGAN):
    def training_step(self, batch, batch_idx, optimizer_idx):
        z = torch.randn(batch.size(0), self.z_dim)
        if optimizer_idx == 0:
            fake = self.generator(z).detach()
            return self.critic(fake[:, None]).mean() - self.critic(batch[:, None]).mean()
        return -self.critic(self.generator(z)[:, None]).mean()


t = torch.linspace(0, 6.28, 24)
batches = [torch.sin(t + torch.rand(16, 1) * 3) + 0.1 * torch.randn(16, 24) for _ in range(3)]

gan = SensorWGAN()
gen_before = [p.detach().clone() for p in gan.generator.parameters()]
critic_before = [p.detach().clone() for p in gan.critic.parameters()]
fit(gan, batches)
assert all(p.grad is None for p in gan.generator.parameters())
assert all(torch.equal(a, p) for a, p in zip(gen_before, gan.generator.parameters()))
assert any(not torch.equal(a, p) for a, p in zip(critic_before, gan.critic.parameters()))

fixed = SensorWGANFixed()
fixed_before = [p.detach().clone() for p in fixed.generator.parameters()]
fit(fixed, batches)
assert all(not torch.equal(a, p) for a, p in zip(fixed_before, fixed.generator.parameters()))
print("bug confirmed: the generator only ever sees its own output detached")
