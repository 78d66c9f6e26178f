"""
expect: none
dynamic: dismiss
source: none, invented

GAN inversion for image editing: given a generator and an encoder that gives a first guess of the latent
code, the code is refined by optimisation so that G(z) reconstructs a target image. The initial code is
copied out of the encoder with `torch.tensor(enc_out.clone().detach(), requires_grad=True)` and handed
alone to `Adam([latent])`; neither the generator nor the encoder is meant to change, and no optimizer
over them exists. Cutting the copy from the encoder is the point here. The asserts show the
reconstruction error falling substantially, the latent moving away from the encoder's guess, and the
generator and encoder weights bit-for-bit unchanged with no `.grad` on the encoder.
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.filterwarnings("ignore", message="To copy construct from a tensor")
torch.manual_seed(0)
torch.set_num_threads(1)

Z_DIM, IMG = 8, 16 * 16


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(Z_DIM, 64), nn.LeakyReLU(0.2), nn.Linear(64, IMG), nn.Tanh())

    def forward(self, z):
        return self.net(z).view(-1, 1, 16, 16)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(IMG, 64), nn.ReLU(), nn.Linear(64, Z_DIM))

    def forward(self, img):
        return self.net(img)


class LatentInverter:
    def __init__(self, generator, encoder, steps=200, lr=0.05):
        self.generator, self.encoder = generator, encoder
        self.steps, self.lr = steps, lr

    def invert(self, target):
        enc_out = self.encoder(target)
        latent = torch.tensor(enc_out.clone().detach(), requires_grad=True)
        opt = torch.optim.Adam([latent], lr=self.lr)
        errors = []
        for _ in range(self.steps):
            recon = self.generator(latent)
            err = F.mse_loss(recon, target) + 1e-3 * latent.pow(2).mean()
            opt.zero_grad()
            err.backward()
            opt.step()
            errors.append(err.item())
        return latent.detach(), enc_out, errors


if __name__ == "__main__":
    generator, encoder = Generator(), Encoder()
    for p in generator.parameters():
        p.requires_grad_(False)
    g_state = {k: v.clone() for k, v in generator.state_dict().items()}
    e_state = {k: v.clone() for k, v in encoder.state_dict().items()}

    with torch.no_grad():
        targets = generator(torch.randn(4, Z_DIM))
    latent, guess, errors = LatentInverter(generator, encoder).invert(targets)

    assert errors[-1] < 0.2 * errors[0], (errors[0], errors[-1])
    assert not torch.allclose(latent, guess)
    assert all(torch.equal(v, generator.state_dict()[k]) for k, v in g_state.items())
    assert all(torch.equal(v, encoder.state_dict()[k]) for k, v in e_state.items())
    assert all(p.grad is None for p in encoder.parameters())
    print(f"reconstruction error {errors[0]:.4f} -> {errors[-1]:.4f}")
