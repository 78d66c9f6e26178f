"""
expect: GL001 vae.py:16
dynamic: confirm
source: https://github.com/huggingface/diffusers/issues/2990

The reporter optimized diffusion latents with a CLIP-guidance loss on the decoded image and
found that `latents.requires_grad` was gone after the VAE: the autoencoder's decode path is
decorated with `@torch.no_grad()`; wrapping the call in `torch.enable_grad()` fixed it.
Here the guidance objective also carries a latent-norm prior, so backward runs and the
latents move, but the CLIP term adds a number and no gradient. The asserts show the latent
gradient is identical with the CLIP weight at 1 and at 0, the guided run ends at exactly
the latents of a prior-only run, and a decode under `torch.enable_grad()` gives a different
gradient and a clearly better CLIP score.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from vae import TinyAutoencoderKL

torch.set_num_threads(1)
torch.manual_seed(0)

vae = TinyAutoencoderKL()
clip_image = nn.Linear(48, 8)                 # frozen image tower
for p in list(vae.parameters()) + list(clip_image.parameters()):
    p.requires_grad_(False)
text_embed = F.normalize(torch.randn(8), dim=0)


def clip_loss(images):
    img = F.normalize(clip_image(images), dim=-1)
    return 1.0 - (img @ text_embed).mean()


def guidance_loss(latents, clip_weight, decode):
    images = decode(latents)
    prior = 0.01 * latents.pow(2).mean()
    return clip_weight * clip_loss(images) + prior


def grad_for(clip_weight, decode, start):
    lat = start.clone().requires_grad_(True)
    guidance_loss(lat, clip_weight, decode).backward()
    return lat.grad.clone()


start = torch.randn(2, 4) * 0.2
g1 = grad_for(1.0, vae.decode, start)
g0 = grad_for(0.0, vae.decode, start)
assert torch.allclose(g1, g0), "CLIP term contributes no gradient through decode"

def run(clip_weight, decode, steps=60):
    lat = start.clone().requires_grad_(True)
    opt = torch.optim.Adam([lat], lr=0.05)
    for _ in range(steps):
        opt.zero_grad()
        guidance_loss(lat, clip_weight, decode).backward()
        opt.step()
    return lat.detach()


first = clip_loss(vae.decode(start)).item()
guided, unguided = run(1.0, vae.decode), run(0.0, vae.decode)
assert torch.equal(guided, unguided), "guidance run == prior-only run"
after = clip_loss(vae.decode(guided)).item()


def decode_with_grad(lat):
    with torch.enable_grad():
        return torch.tanh(vae.decoder(lat / vae.scaling_factor))


assert not torch.allclose(grad_for(1.0, decode_with_grad, start), g1)
fixed = run(1.0, decode_with_grad)
fixed_score = clip_loss(decode_with_grad(fixed)).item()
assert fixed_score < after - 0.05
print("p05 ok: no_grad decode cuts the CLIP guidance", first, after, fixed_score)
