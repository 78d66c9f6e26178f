"""expect: GL001 35
dynamic: confirm
source: kinds8 (kind B)

The trainable timestep MLP is evaluated inside the no_grad block for the frozen
latent encoder, so its weights sit in the optimizer without ever getting a gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FrozenLatentEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.SiLU(),
            nn.Conv2d(8, 4, 3, stride=2, padding=1),
        )
        for prm in self.parameters():
            prm.requires_grad = False

    def forward(self, img):
        return self.down(img)


class LatentDenoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.vae_enc = FrozenLatentEncoder()
        self.time_mlp = nn.Sequential(nn.Linear(1, 8), nn.SiLU(), nn.Linear(8, 4))
        self.eps_net = nn.Conv2d(4, 4, 3, padding=1)

    def training_loss(self, img, t):
        with torch.no_grad():
            lat = self.vae_enc(img)
            t_emb = self.time_mlp(t[:, None])
        noise = torch.randn_like(lat)
        alpha = (1.0 - t).view(-1, 1, 1, 1)
        noisy = alpha.sqrt() * lat + (1.0 - alpha).sqrt() * noise
        eps_hat = self.eps_net(noisy + t_emb[:, :, None, None])
        return F.mse_loss(eps_hat, noise)


def main():
    torch.manual_seed(0)
    ldm = LatentDenoiser()
    opt = torch.optim.AdamW([w for w in ldm.parameters() if w.requires_grad], lr=1e-3)
    img = torch.randn(2, 3, 16, 16)
    t = torch.rand(2) * 0.9
    opt.zero_grad()
    loss = ldm.training_loss(img, t)
    loss.backward()
    opt.step()
    assert ldm.time_mlp[0].weight.grad is None
    assert ldm.time_mlp[2].weight.grad is None
    assert ldm.eps_net.weight.grad is not None
    print("OK")


if __name__ == "__main__":
    main()
