import os
import sys

import torch
import torch.nn.functional as F

from models import VAE

DATA_DIM = 32


def synthetic_signals(n, seed=0):
    g = torch.Generator().manual_seed(seed)
    basis = torch.randn(3, DATA_DIM, generator=g)
    coeff = torch.randn(n, 3, generator=g)
    return torch.tanh(coeff @ basis) + 0.02 * torch.randn(n, DATA_DIM, generator=g)


def pretrain_vae(ckpt_path, epochs=40, beta=1e-3):
    torch.manual_seed(0)
    data = synthetic_signals(4096)
    vae = VAE(DATA_DIM)
    opt = torch.optim.Adam(vae.parameters(), lr=2e-3)
    for epoch in range(epochs):
        for x in data[torch.randperm(data.shape[0])].split(128):
            recon, mu, logvar = vae(x)
            kl = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(-1).mean()
            loss = F.mse_loss(recon, x) + beta * kl
            opt.zero_grad()
            loss.backward()
            opt.step()
    os.makedirs(os.path.dirname(ckpt_path) or ".", exist_ok=True)
    torch.save(vae.state_dict(), ckpt_path)
    return loss.item()


if __name__ == "__main__":
    path = sys.argv[1] if len(sys.argv) > 1 else "checkpoints/vae.pt"
    print("final vae loss", pretrain_vae(path))
