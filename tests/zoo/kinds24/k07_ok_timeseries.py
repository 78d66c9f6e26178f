"""
expect: none
dynamic: dismiss
source: kinds check 24, kind 7 (written for this check)

A Lightning-style GAN for load-forecast residuals: `training_step(batch, batch_idx,
optimizer_idx)` returns the critic's loss on `self.gen(noise).detach()` for optimizer 0 and
the generator's loss through the critic, attached, for optimizer 1. A tiny manual trainer
backpropagates each returned loss and steps its optimizer; the asserts show each optimizer's
parameters all get a nonzero gradient from their own step and all move.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)


class ResidualGAN(nn.Module):
    def __init__(self, horizon=16, noise_dim=6):
        super().__init__()
        self.noise_dim = noise_dim
        self.gen = nn.GRU(noise_dim, 12, batch_first=True)
        self.gen_out = nn.Linear(12, 1)
        self.disc = nn.Sequential(nn.Linear(horizon, 24), nn.LeakyReLU(0.2), nn.Linear(24, 1))

    def generate(self, n, horizon):
        h, _ = self.gen(torch.randn(n, horizon, self.noise_dim))
        return self.gen_out(h).squeeze(-1)

    def configure_optimizers(self):
        g_params = list(self.gen.parameters()) + list(self.gen_out.parameters())
        return [torch.optim.Adam(self.disc.parameters(), lr=1e-3), torch.optim.Adam(g_params, lr=1e-3)]

    def training_step(self, batch, batch_idx, optimizer_idx):
        n, horizon = batch.shape
        if optimizer_idx == 0:
            fake = self.generate(n, horizon).detach()
            real_logit, fake_logit = self.disc(batch), self.disc(fake)
            return (F.binary_cross_entropy_with_logits(real_logit, torch.ones_like(real_logit))
                    + F.binary_cross_entropy_with_logits(fake_logit, torch.zeros_like(fake_logit)))
        fake_logit = self.disc(self.generate(n, horizon))
        return F.binary_cross_entropy_with_logits(fake_logit, torch.ones_like(fake_logit))


class ManualTrainer:
    def __init__(self, module):
        self.module = module
        self.optimizers = module.configure_optimizers()

    def run(self, batches):
        report = {}
        for batch_idx, batch in enumerate(batches):
            for opt_idx, opt in enumerate(self.optimizers):
                opt.zero_grad()
                self.module.training_step(batch, batch_idx, opt_idx).backward()
                params = [p for g in opt.param_groups for p in g["params"]]
                report[opt_idx] = all(p.grad is not None and p.grad.abs().sum() > 0 for p in params)
                opt.step()
        return report


batches = [torch.cumsum(0.2 * torch.randn(8, 16), dim=1) for _ in range(3)]
gan = ResidualGAN()
before = {n: p.detach().clone() for n, p in gan.named_parameters()}
report = ManualTrainer(gan).run(batches)
assert report == {0: True, 1: True}, report
for name, p in gan.named_parameters():
    assert not torch.equal(before[name], p), name
print("ok: critic step uses detached fakes, generator step stays attached")
