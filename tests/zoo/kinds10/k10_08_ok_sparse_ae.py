"""
expect: none
dynamic: dismiss
source: kinds check 10, kind 8

A sparse autoencoder on 8x8 image patches with the classic KL sparsity
penalty. `code.new_tensor(0.05)` only builds the constant target density from
a Python float; the penalty itself uses the live mean activation, so its
gradient reaches the encoder and changes it compared with the plain loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

PATCH = 8


class SparseAutoencoder(nn.Module):
    def __init__(self, n_pixels=PATCH * PATCH, n_code=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Flatten(), nn.Linear(n_pixels, n_code), nn.Sigmoid())
        self.decoder = nn.Linear(n_code, n_pixels)

    def forward(self, patches):
        code = self.encoder(patches)
        return code, self.decoder(code)


def extract_patches(images, size=PATCH):
    p = images.unfold(2, size, size).unfold(3, size, size)
    return p.reshape(-1, 1, size, size)


def kl_sparsity(code, target_density):
    rho_hat = code.mean(dim=0).clamp(1e-6, 1 - 1e-6)
    rho = code.new_tensor(target_density)
    return (rho * torch.log(rho / rho_hat)
            + (1 - rho) * torch.log((1 - rho) / (1 - rho_hat))).sum()


def sae_loss(model, patches, beta):
    code, recon = model(patches)
    recon_loss = F.mse_loss(recon, patches.flatten(1))
    return recon_loss + beta * kl_sparsity(code, 0.05)


def encoder_grad(model, patches, beta):
    model.zero_grad()
    sae_loss(model, patches, beta).backward()
    return model.encoder[1].weight.grad.clone()


def main():
    model = SparseAutoencoder()
    patches = extract_patches(torch.rand(2, 1, 16, 16))

    g_plain = encoder_grad(model, patches, beta=0.0)
    g_sparse = encoder_grad(model, patches, beta=0.5)
    assert g_sparse.abs().sum() > 0
    assert not torch.allclose(g_plain, g_sparse), "penalty must shape the encoder"

    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    density_before = model(patches)[0].mean().item()
    for _ in range(20):
        optimizer.zero_grad()
        sae_loss(model, patches, beta=0.5).backward()
        optimizer.step()
    density_after = model(patches)[0].mean().item()
    assert density_after < density_before
    print("density %.3f -> %.3f" % (density_before, density_after))
    print("OK")


if __name__ == "__main__":
    main()
