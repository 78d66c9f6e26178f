"""
expect: none
dynamic: dismiss
source: https://github.com/RaviNaik/ERA-SESSION20/blob/799d0431cccf5e95a40da2a9a8fed116cf69041c/src/stable_diffusion.py

The project samples from Stable Diffusion with an extra "guidance loss" on the image
(e.g. make it bluer): every few denoising steps it takes the latents through
`latents.detach().requires_grad_()`, predicts the clean latent from a noise prediction
that was computed under `torch.no_grad()`, decodes it with the VAE, differentiates the
image loss with `torch.autograd.grad(loss, latents)` and moves the latents with
`latents.detach() - cond_grad * sigma**2`. No_grad, detach and requires_grad_ on the
same tensor look like a severed graph, but the recipe is right: the only quantity being
optimised is the current latent, the UNet's noise prediction is deliberately treated as
a constant (back-propagating through the UNet is the expensive part the recipe avoids),
the path latents -> x0 -> decoder -> loss is fully recorded after requires_grad_, and
the final detach just starts the next step from plain data. This copy keeps the sampler
in guidance.py with a frozen toy UNet and decoder; the asserts show the guidance
gradients are non-zero, the frozen networks never receive gradients, and the guided
samples score clearly better on the guidance loss than unguided samples from the same
noise.
"""
import torch

from guidance import TinyLatentDiffusion

torch.manual_seed(0)
torch.set_num_threads(1)


def blue_loss(images):
    # push the last third of the "pixels" towards 0.9
    blue = images[:, 2 * images.shape[1] // 3:]
    return (blue - 0.9).abs().mean()


if __name__ == "__main__":
    model = TinyLatentDiffusion()

    torch.manual_seed(1)
    plain = model.generate(16)
    torch.manual_seed(1)
    grads = []
    guided = model.generate(16, loss_fn=blue_loss, record=grads)

    assert len(grads) > 0 and all(g.abs().sum() > 0 for g in grads)
    frozen = list(model.unet.parameters()) + list(model.vae_decoder.parameters())
    assert all(p.grad is None for p in frozen)
    assert blue_loss(guided) < 0.8 * blue_loss(plain), (blue_loss(plain), blue_loss(guided))
    print(f"ok: latent guidance lowers the image loss {blue_loss(plain):.3f} -> {blue_loss(guided):.3f}")
