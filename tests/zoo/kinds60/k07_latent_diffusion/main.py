"""
expect: none
dynamic: dismiss
source: none, invented

Stage two of a latent-diffusion setup over three files. `models.py` defines a VAE and a small denoiser;
`pretrain.py` trains the VAE and saves it; `main.py` loads the VAE (running the first stage if no checkpoint
exists), puts it in eval mode and trains only the denoiser, with `Adam(denoiser.parameters())`, on
`vae.encode(x)[0].detach()` latents using the usual noise-prediction loss. The `.detach()` removes the VAE's
path to the loss, and that is the intent: the autoencoder was trained in its own stage and stays fixed while
the diffusion model learns its latent space, and it is not in this optimizer. The asserts check that the
denoiser's noise-prediction loss drops, that its weights move, and that the VAE still matches the checkpoint
bit for bit after training.
"""
import os

import torch
import torch.nn.functional as F

from models import VAE, Denoiser
from pretrain import DATA_DIM, pretrain_vae, synthetic_signals

torch.set_num_threads(1)

CKPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "checkpoints", "vae.pt")
T_STEPS = 100


def noise_schedule(steps=T_STEPS):
    betas = torch.linspace(1e-4, 0.05, steps)
    return torch.cumprod(1.0 - betas, dim=0)


def eval_loss(denoiser, latents, alpha_bar, n=1024):
    g = torch.Generator().manual_seed(123)
    z0 = latents[:n]
    t = torch.randint(0, T_STEPS, (n,), generator=g)
    eps = torch.randn(z0.shape, generator=g)
    ab = alpha_bar[t][:, None]
    with torch.no_grad():
        return F.mse_loss(denoiser(ab.sqrt() * z0 + (1 - ab).sqrt() * eps, t), eps).item()


def main():
    if not os.path.exists(CKPT):
        pretrain_vae(CKPT)
    torch.manual_seed(0)
    vae = VAE(DATA_DIM)
    vae.load_state_dict(torch.load(CKPT))
    vae.eval()
    saved = {k: v.clone() for k, v in vae.state_dict().items()}

    denoiser = Denoiser()
    opt = torch.optim.Adam(denoiser.parameters(), lr=1e-3)
    alpha_bar = noise_schedule()
    data = synthetic_signals(4096, seed=1)

    with torch.no_grad():
        all_latents = vae.encode(data)[0]
    before = [p.detach().clone() for p in denoiser.parameters()]
    loss_before = eval_loss(denoiser, all_latents, alpha_bar)

    for epoch in range(30):
        for x in data[torch.randperm(data.shape[0])].split(128):
            z0 = vae.encode(x)[0].detach()
            t = torch.randint(0, T_STEPS, (z0.shape[0],))
            eps = torch.randn_like(z0)
            ab = alpha_bar[t][:, None]
            z_t = ab.sqrt() * z0 + (1 - ab).sqrt() * eps
            loss = F.mse_loss(denoiser(z_t, t), eps)
            opt.zero_grad()
            loss.backward()
            opt.step()

    loss_after = eval_loss(denoiser, all_latents, alpha_bar)
    assert loss_after < 0.6 * loss_before, (loss_before, loss_after)
    assert not any(torch.equal(a, b) for a, b in zip(before, denoiser.parameters()))
    assert all(torch.equal(v, vae.state_dict()[k]) for k, v in saved.items())
    print(f"denoiser eps-mse {loss_before:.3f} -> {loss_after:.3f}")


if __name__ == "__main__":
    main()
