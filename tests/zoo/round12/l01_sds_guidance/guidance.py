"""Score-distillation guidance with an extra image-space similarity term (frozen nets)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FrozenGuide(nn.Module):
    def __init__(self, lat=8, img=12, emb=6):
        super().__init__()
        self.unet = nn.Linear(lat + 1, lat)
        self.decoder = nn.Linear(lat, img)
        self.clip = nn.Linear(img, emb)
        for p in self.parameters():
            p.requires_grad_(False)
        self.alphas = torch.linspace(0.99, 0.05, 100)

    def train_step(self, latents, ref_embedding, clip_scale=10.0):
        t = int(torch.randint(10, 90, ()))
        a_t = self.alphas[t]
        with torch.no_grad():
            noise = torch.randn_like(latents)
            noisy = a_t.sqrt() * latents + (1 - a_t).sqrt() * noise
            t_col = torch.full((latents.shape[0], 1), t / 100.0)
            noise_pred = self.unet(torch.cat([noisy, t_col], dim=1))
        pred_x0 = (noisy - (1 - a_t).sqrt() * noise_pred) / a_t.sqrt()
        sample = pred_x0.detach().requires_grad_()
        emb = F.normalize(self.clip(self.decoder(sample)), dim=-1)
        clip_loss = clip_scale * (1 - (emb * ref_embedding).sum(-1)).mean()
        grads_clip = -torch.autograd.grad(clip_loss, sample)[0]
        w = 1 - a_t
        grad = w * (noise_pred - noise) + w * grads_clip
        latents.backward(gradient=grad)
        return clip_loss.item()
