"""expect: none
dynamic: dismiss
source: https://github.com/tianweiy/DMD2/issues/75

Look-alike. DMD2 distils a diffusion model into a few-step generator. On the
generator turn it wraps the guidance model in `requires_grad_(False)` ...
`requires_grad_(True)`, computes the distribution-matching term with the
score networks under no_grad (its target is detached on purpose), and adds a
GAN term from a classifier head on the guidance model's fake-score features.
A user worried that freezing the guidance model blocks the GAN gradient to
the generator; the reply: requires_grad_(False) is not no_grad()/detach(),
the guidance weights just get no .grad while the gradient still flows
through them to the generator. On the guidance turn the generator output is
detached so only the guidance model learns. Everything trains as intended.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ScoreNet(nn.Module):
    def __init__(self, dim=8, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(dim + 1, hidden), nn.SiLU())
        self.out = nn.Linear(hidden, dim)

    def features(self, x, t):
        return self.body(torch.cat([x, t[:, None]], -1))

    def forward(self, x, t):
        return self.out(self.features(x, t))


class GuidanceModel(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.real_unet = ScoreNet(dim).requires_grad_(False)      # frozen teacher
        self.fake_unet = ScoreNet(dim)
        self.cls_head = nn.Linear(32, 1)

    def generator_losses(self, x_gen):
        t = torch.rand(x_gen.shape[0])
        noisy = x_gen + t[:, None] * torch.randn_like(x_gen)
        with torch.no_grad():
            grad = self.fake_unet(noisy, t) - self.real_unet(noisy, t)
        loss_dmd = 0.5 * F.mse_loss(x_gen, (x_gen - grad).detach())
        logits = self.cls_head(self.fake_unet.features(noisy, t))
        loss_gan = F.softplus(-logits).mean()
        return loss_dmd, loss_gan

    def guidance_losses(self, x_gen_detached, x_real):
        t = torch.rand(x_real.shape[0])
        eps = torch.randn_like(x_gen_detached)
        noisy = x_gen_detached + t[:, None] * eps
        loss_fake = F.mse_loss(self.fake_unet(noisy, t), eps)
        real_logits = self.cls_head(self.fake_unet.features(x_real + t[:, None] * eps, t))
        fake_logits = self.cls_head(self.fake_unet.features(noisy, t))
        loss_cls = F.softplus(-real_logits).mean() + F.softplus(fake_logits).mean()
        return loss_fake + loss_cls


torch.manual_seed(0)
generator = nn.Sequential(nn.Linear(4, 32), nn.SiLU(), nn.Linear(32, 8))
guidance = GuidanceModel()
opt_g = torch.optim.AdamW(generator.parameters(), lr=1e-4)
opt_d = torch.optim.AdamW([p for p in guidance.parameters() if p.requires_grad], lr=1e-4)
z, x_real = torch.randn(16, 4), torch.randn(16, 8)

# generator turn
opt_g.zero_grad()
x_gen = generator(z)
guidance.requires_grad_(False)
loss_dmd, loss_gan = guidance.generator_losses(x_gen)
guidance.requires_grad_(True)
guidance.real_unet.requires_grad_(False)
(loss_dmd + 0.01 * loss_gan).backward()
opt_g.step()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in generator.parameters())
assert all(p.grad is None for p in guidance.parameters())

# the GAN term alone reaches the generator through the frozen guidance model
generator.zero_grad()
guidance.requires_grad_(False)
_, gan_only = guidance.generator_losses(generator(z))
guidance.requires_grad_(True)
guidance.real_unet.requires_grad_(False)
gan_only.backward()
assert all(p.grad.abs().sum() > 0 for p in generator.parameters())

# guidance turn: only the guidance model learns
opt_d.zero_grad()
generator.zero_grad(set_to_none=True)
guidance.guidance_losses(generator(z).detach(), x_real).backward()
opt_d.step()
assert all(p.grad is not None for p in guidance.fake_unet.parameters())
assert guidance.cls_head.weight.grad is not None
assert all(p.grad is None for p in generator.parameters())
print("OK")
