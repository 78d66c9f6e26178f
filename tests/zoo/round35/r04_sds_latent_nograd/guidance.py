import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyAutoencoderKL(nn.Module):
    """Frozen stand-in for the latent-diffusion VAE."""

    def __init__(self):
        super().__init__()
        self.enc = nn.Conv2d(3, 4, 4, stride=4)

    def encode(self, images):
        return self.enc(images * 2 - 1) * 0.18


class TinyUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(4, 16, 3, padding=1), nn.SiLU(), nn.Conv2d(16, 4, 3, padding=1))

    def forward(self, x, t):
        return self.net(x) * (1 + t.view(-1, 1, 1, 1))


class LatentScoreDistillation:
    """Score-distillation guidance: the rendered image is pushed toward what the
    frozen diffusion model finds likely."""

    def __init__(self, vae, unet):
        self.vae, self.unet = vae, unet
        for p in list(vae.parameters()) + list(unet.parameters()):
            p.requires_grad_(False)
        self.alphas = torch.linspace(0.99, 0.1, 100)

    def encode_imgs(self, images):
        with torch.no_grad():
            latents = self.vae.encode(images)
        return latents

    def train_step(self, rendered):
        latents = self.encode_imgs(rendered)
        t = torch.randint(20, 80, (latents.shape[0],))
        noise = torch.randn_like(latents)
        a = self.alphas[t].view(-1, 1, 1, 1)
        noisy = a.sqrt() * latents + (1 - a).sqrt() * noise
        with torch.no_grad():
            noise_pred = self.unet(noisy, t.float() / 100)
        grad = (1 - a) * (noise_pred - noise)
        target = (latents - grad).detach()
        return 0.5 * F.mse_loss(latents, target, reduction="sum")


class FixedLatentScoreDistillation(LatentScoreDistillation):
    def encode_imgs(self, images):
        return self.vae.encode(images)
