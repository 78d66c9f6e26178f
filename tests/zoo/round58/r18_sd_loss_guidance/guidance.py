"""A toy latent-diffusion sampler with loss guidance on the predicted clean image."""
import torch
import torch.nn as nn


class TinyLatentDiffusion:
    def __init__(self, latent_dim=8, image_dim=12, steps=30):
        self.unet = nn.Sequential(nn.Linear(latent_dim + 1, 64), nn.SiLU(),
                                  nn.Linear(64, latent_dim))
        self.vae_decoder = nn.Linear(latent_dim, image_dim)
        for p in list(self.unet.parameters()) + list(self.vae_decoder.parameters()):
            p.requires_grad_(False)   # pretrained and frozen
        self.sigmas = torch.linspace(3.0, 0.0, steps + 1)
        self.latent_dim = latent_dim

    def predict_noise(self, latents, sigma):
        t = torch.full((latents.shape[0], 1), float(sigma))
        return self.unet(torch.cat([latents / (1 + sigma ** 2) ** 0.5, t], 1))

    def generate(self, n, loss_fn=None, loss_scale=50.0, guide_every=5, record=None):
        latents = torch.randn(n, self.latent_dim) * self.sigmas[0]
        for i in range(len(self.sigmas) - 1):
            sigma, sigma_next = self.sigmas[i], self.sigmas[i + 1]
            # predict the noise residual
            with torch.no_grad():
                noise_pred = self.predict_noise(latents, sigma)

            if loss_fn is not None and i % guide_every == 0:
                # requires grad on the latents
                latents = latents.detach().requires_grad_()
                # predicted x0, decoded to image space
                latents_x0 = latents - sigma * noise_pred
                images = torch.sigmoid(self.vae_decoder(latents_x0))
                loss = loss_fn(images) * loss_scale
                cond_grad = torch.autograd.grad(loss, latents)[0]
                if record is not None:
                    record.append(cond_grad)
                # modify the latents based on this gradient
                latents = latents.detach() - cond_grad * sigma ** 2

            # Euler step x_t -> x_{t-1}
            latents = latents + (sigma_next - sigma) * noise_pred
        with torch.no_grad():
            return torch.sigmoid(self.vae_decoder(latents))
