"""
expect: none
dynamic: dismiss
source: https://github.com/fastai/diffusion-nbs/issues/34

The Stable Diffusion Deep Dive notebook guides sampling with an extra loss: the UNet noise
prediction is computed under `torch.no_grad()`, then every few steps the latents are reset
with `latents.detach().requires_grad_()`, the predicted clean image is decoded, a colour
loss is taken and `torch.autograd.grad(loss, latents)` nudges the latents. The issue asks
why `requires_grad` is switched on after the no_grad UNet call; the answer is that this is
a deliberate, cheaper approximation: the gradient only flows through `x0 = latents -
sigma * noise_pred` and the decoder, treating the noise prediction as a constant. The
asserts show the guidance gradient equals that analytic gradient and that guidance lowers
the colour loss of the final decoded image compared with unguided sampling.
"""
import torch
import torch.nn as nn

torch.set_num_threads(1)
torch.manual_seed(0)

unet = nn.Sequential(nn.Linear(9, 32), nn.SiLU(), nn.Linear(32, 8))
decoder = nn.Sequential(nn.Linear(8, 32), nn.SiLU(), nn.Linear(32, 12))   # 4 "pixels" x RGB
for p in list(unet.parameters()) + list(decoder.parameters()):
    p.requires_grad_(False)
sigmas = torch.linspace(1.0, 0.05, 30)


def blue_loss(images):
    return (images.view(-1, 4, 3)[..., 2] - 0.9).abs().mean()


def sample(latents, blue_loss_scale=0.0, guide_every=3, check=False):
    for i, sigma in enumerate(sigmas):
        with torch.no_grad():
            noise_pred = unet(torch.cat([latents, sigma.expand(latents.shape[0], 1)], -1))
        if blue_loss_scale > 0 and i % guide_every == 0:
            latents = latents.detach().requires_grad_()
            latents_x0 = latents - sigma * noise_pred
            denoised_images = decoder(latents_x0)
            loss = blue_loss(denoised_images) * blue_loss_scale
            cond_grad = torch.autograd.grad(loss, latents)[0]
            if check:
                x0 = (latents - sigma * noise_pred).detach().requires_grad_()
                ref = torch.autograd.grad(blue_loss(decoder(x0)) * blue_loss_scale, x0)[0]
                assert torch.allclose(cond_grad, ref) and cond_grad.abs().sum() > 0
            latents = latents.detach() - cond_grad * sigma ** 2
        with torch.no_grad():
            latents = latents - 0.1 * sigma * noise_pred
    return latents.detach()


start = torch.randn(6, 8)
plain = sample(start.clone())
guided = sample(start.clone(), blue_loss_scale=40.0, check=True)
with torch.no_grad():
    lp, lg = blue_loss(decoder(plain)).item(), blue_loss(decoder(guided)).item()
assert lg < lp - 0.05, (lp, lg)
print("p19 ok: requires_grad_ after the no_grad UNet is a deliberate approximation", lp, lg)
