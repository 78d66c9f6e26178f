"""
expect: GL001 20
dynamic: confirm
source: kinds check 19, kind 4 (written for this check)

Encoder and denoiser of a latent diffusion model are trained jointly (both are in the
optimizer), but the latent is passed through `as_probe_leaf()` to read a score
w.r.t. the latent, which returns `z.detach().requires_grad_()`. The latent came from
the encoder, not from the user, so binding it back (`z = as_probe_leaf(z)`) cuts the
encoder off: I expect GL001 at the helper's detach line (a cut that starves trained
parameters; the remade tensor is a real leaf, so no leaf-misuse error ever shows).
The asserts show the encoder's grads stay None and weights unchanged, unlike with `retain_grad()`.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def as_probe_leaf(z):
    return z.detach().requires_grad_()


class Denoiser(nn.Module):
    def __init__(self, c=4):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(c + 1, 32, 3, padding=1), nn.SiLU(), nn.Conv2d(32, c, 3, padding=1))

    def forward(self, z_t, t):
        t_map = t.view(-1, 1, 1, 1).expand(-1, 1, *z_t.shape[-2:])
        return self.net(torch.cat([z_t, t_map], 1))


encoder = nn.Sequential(nn.Conv2d(3, 16, 4, 2, 1), nn.SiLU(), nn.Conv2d(16, 4, 4, 2, 1))
denoiser = Denoiser()
opt = torch.optim.AdamW([*encoder.parameters(), *denoiser.parameters()], lr=1e-3)
alpha_bar = torch.linspace(0.99, 0.05, 100)


def train_step(images):
    z = encoder(images)
    z = as_probe_leaf(z)
    t = torch.randint(0, 100, (images.shape[0],))
    a = alpha_bar[t].view(-1, 1, 1, 1)
    noise = torch.randn_like(z)
    z_t = a.sqrt() * z + (1 - a).sqrt() * noise
    loss = F.mse_loss(denoiser(z_t, t.float() / 100), noise) + 1e-3 * z.pow(2).mean()
    opt.zero_grad(set_to_none=True)
    loss.backward()
    latent_score = z.grad.abs().mean()
    opt.step()
    return latent_score


torch.manual_seed(9)
imgs = torch.randn(4, 3, 32, 32)
w0 = encoder[0].weight.clone()
score = train_step(imgs)
assert all(p.grad is None for p in encoder.parameters()), "encoder starved"
assert torch.equal(w0, encoder[0].weight) and score > 0
# fixed: keep the latent on the graph and read its grad with retain_grad()
z = encoder(imgs)
z.retain_grad()
t = torch.randint(0, 100, (4,))
a = alpha_bar[t].view(-1, 1, 1, 1)
eps = torch.randn_like(z)
F.mse_loss(denoiser(a.sqrt() * z + (1 - a).sqrt() * eps, t.float() / 100), eps).backward()
assert all(p.grad is not None for p in encoder.parameters()) and z.grad is not None
print("k4_bug_diffusion: remade latent leaf starves the encoder")
