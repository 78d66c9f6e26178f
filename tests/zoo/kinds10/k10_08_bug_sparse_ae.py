"""
expect: GL002 40
dynamic: confirm
source: kinds check 10, kind 8

A sparse autoencoder on 8x8 image patches adds an L1 activity penalty on the
code. The penalty is rebuilt with `recon.new_tensor(code.abs().mean(),
requires_grad=True)`, which copies the value into a fresh leaf with no history,
so the penalty's gradient stops at that leaf: the encoder gradient is exactly
the one from the reconstruction term alone and the code is never pushed to 0.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

PATCH = 8


class SparseAutoencoder(nn.Module):
    def __init__(self, n_pixels=PATCH * PATCH, n_code=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Flatten(), nn.Linear(n_pixels, n_code), nn.ReLU())
        self.decoder = nn.Linear(n_code, n_pixels)

    def forward(self, patches):
        code = self.encoder(patches)
        return code, self.decoder(code)


def extract_patches(images, size=PATCH):
    p = images.unfold(2, size, size).unfold(3, size, size)
    return p.reshape(-1, 1, size, size)


def sae_loss(model, patches, l1_weight):
    code, recon = model(patches)
    recon_loss = F.mse_loss(recon, patches.flatten(1))
    activity = recon.new_tensor(code.abs().mean(), requires_grad=True)
    return recon_loss + l1_weight * activity


def encoder_grad(model, patches, l1_weight):
    model.zero_grad()
    sae_loss(model, patches, l1_weight).backward()
    return model.encoder[1].weight.grad.clone()


def main():
    model = SparseAutoencoder()
    patches = extract_patches(torch.rand(2, 1, 16, 16))

    g_plain = encoder_grad(model, patches, l1_weight=0.0)
    g_sparse = encoder_grad(model, patches, l1_weight=5.0)
    assert torch.allclose(g_plain, g_sparse), "penalty should have no effect here"

    model.zero_grad()
    code, recon = model(patches)
    honest = F.mse_loss(recon, patches.flatten(1)) + 5.0 * code.abs().mean()
    honest.backward()
    assert not torch.allclose(model.encoder[1].weight.grad, g_sparse)
    print("OK")


if __name__ == "__main__":
    main()
