"""expect: GL001 55
dynamic: confirm
source: https://github.com/somuchtome/SimAC/issues/3

SimAC protects face photos against diffusion-model personalisation by
optimising an adversarial perturbation: it maximises the denoiser's training
loss and, in addition, a feature-distance term on intermediate UNet features
at the selected time steps. In the released code that feature term was added
as `loss = loss + target_loss.detach().item()`; a user asked why, and the
authors acknowledged the mix-up. A Python float carries no gradient, so the
perturbation is updated from the denoising loss alone and the feature term
never shapes it (the attack silently degrades to its baseline). Fix: add the
tensor itself (`loss = loss + target_loss`).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyDenoiser(nn.Module):
    """Stand-in for the frozen UNet: predicts noise from a noisy image and t."""

    def __init__(self, ch=8):
        super().__init__()
        self.down = nn.Conv2d(3, ch, 3, padding=1)
        self.mid = nn.Conv2d(ch, ch, 3, padding=1)
        self.up = nn.Conv2d(ch, 3, 3, padding=1)
        self.t_embed = nn.Embedding(1000, ch)

    def forward(self, x, t):
        h = F.silu(self.down(x))
        h = h + self.t_embed(t)[:, :, None, None]
        feat = F.silu(self.mid(h))
        return self.up(feat), feat


def noised(x0, noise, t, alphas_bar):
    a = alphas_bar[t].view(-1, 1, 1, 1)
    return a.sqrt() * x0 + (1 - a).sqrt() * noise


def feature_gap(unet, x_adv, x_clean, t, noise, alphas_bar):
    """Distance of the intermediate features of protected vs clean images."""
    _, f_adv = unet(noised(x_adv, noise, t, alphas_bar), t)
    with torch.no_grad():
        _, f_clean = unet(noised(x_clean, noise, t, alphas_bar), t)
    return F.mse_loss(f_adv, f_clean)


def attack_objective(unet, delta, images, t, noise, alphas_bar):
    x_adv = (images + delta).clamp(-1, 1)
    eps_pred, _ = unet(noised(x_adv, noise, t, alphas_bar), t)
    loss = F.mse_loss(eps_pred, noise)
    target_loss = feature_gap(unet, x_adv, images, t, noise, alphas_bar)
    loss = loss + target_loss.detach().item()
    return loss


def protect(unet, images, steps=3, step_size=2 / 255, budget=8 / 255):
    alphas_bar = torch.linspace(0.99, 0.01, 1000)
    delta = ((torch.rand_like(images) * 2 - 1) * budget).requires_grad_(True)
    start = delta.detach().clone()
    grads = []
    for k in range(steps):
        g = torch.Generator().manual_seed(k)
        t = torch.randint(0, 1000, (images.shape[0],), generator=g)
        noise = torch.randn(images.shape, generator=g)
        loss = attack_objective(unet, delta, images, t, noise, alphas_bar)
        grad, = torch.autograd.grad(loss, delta)
        grads.append((grad, t, noise))
        with torch.no_grad():
            delta += step_size * grad.sign()
            delta.clamp_(-budget, budget)
    return delta, start, grads, alphas_bar


torch.manual_seed(0)
unet = TinyDenoiser()
unet.requires_grad_(False)
faces = torch.rand(2, 3, 16, 16) * 2 - 1
delta, start, grads, alphas_bar = protect(unet, faces, steps=1)

# re-evaluate the two halves of the objective at the starting perturbation
grad_used, t, noise = grads[0]
d0 = start.clone().requires_grad_(True)
x_adv = (faces + d0).clamp(-1, 1)
eps_pred, _ = unet(noised(x_adv, noise, t, alphas_bar), t)
g_denoise, = torch.autograd.grad(F.mse_loss(eps_pred, noise), d0)
x_adv2 = (faces + d0).clamp(-1, 1)
g_feature, = torch.autograd.grad(feature_gap(unet, x_adv2, faces, t, noise, alphas_bar), d0)

assert torch.allclose(grad_used, g_denoise)           # only the denoising term steered delta
assert g_feature.abs().sum() > 0                        # the feature term had a gradient to give
assert not torch.allclose(grad_used, g_denoise + g_feature)
print("OK")
