"""A miniature text-to-image sampling pipeline whose __call__ is decorated for inference, like diffusers pipelines."""
import torch
import torch.nn as nn


class TinyDenoiser(nn.Module):
    def __init__(self, ch=4, cond_dim=8):
        super().__init__()
        self.inp = nn.Conv2d(ch, 16, 3, padding=1)
        self.cond = nn.Linear(cond_dim, 16)
        self.out = nn.Conv2d(16, ch, 3, padding=1)

    def forward(self, x, t, cond):
        h = torch.tanh(self.inp(x) + self.cond(cond)[:, :, None, None] + t)
        return self.out(h)


class TinyDecoder(nn.Module):
    def __init__(self, ch=4):
        super().__init__()
        self.up = nn.ConvTranspose2d(ch, 3, 2, stride=2)

    def forward(self, z):
        return torch.sigmoid(self.up(z))


class TinyPipeline:
    def __init__(self, steps=5):
        self.unet = TinyDenoiser()
        self.vae = TinyDecoder()
        self.prompts = {"dog": torch.randn(1, 8), "cat": torch.randn(1, 8)}
        self.alphas = torch.linspace(0.9, 0.99, steps)

    def denoise(self, prompt, latents):
        cond = self.prompts[prompt]
        x = latents
        for i, a in enumerate(self.alphas):
            eps = self.unet(x, float(i) / len(self.alphas), cond)
            x = (x - (1 - a).sqrt() * eps) / a.sqrt()
        return self.vae(x)

    @torch.no_grad()
    def __call__(self, prompt, latents):
        return self.denoise(prompt, latents)
