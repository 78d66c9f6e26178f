"""A small latent autoencoder with an inference-style decode, as shipped in a pipeline library."""
import torch
import torch.nn as nn


class TinyAutoencoderKL(nn.Module):
    def __init__(self, latent=4, pixels=48):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(pixels, 32), nn.SiLU(), nn.Linear(32, latent))
        self.decoder = nn.Sequential(nn.Linear(latent, 32), nn.SiLU(), nn.Linear(32, pixels))
        self.scaling_factor = 0.18

    def encode(self, images):
        return self.encoder(images) * self.scaling_factor

    @torch.no_grad()
    def decode(self, latents):
        return torch.tanh(self.decoder(latents / self.scaling_factor))
