"""
expect: GL002 38
dynamic: confirm
source: https://github.com/lauriklem/GPR-NVAE-LSGM/blob/b691362630163910e4f6c3ed3b5d69fc0a7b2bf1/gpr_latent_nn_conv_train2.py

In GPR-NVAE-LSGM (ground-penetrating-radar images generated with an NVAE), a small network
predicts the latent code of an in-between radargram and is trained through the frozen decoder.
Its CustomL1 loss scores each generated image with a numpy SSIM (gpr_evaluation.struc_sim) and
returns torch.mean(torch.tensor(losses, requires_grad=True)): the per-image scores are plain
floats rebuilt into a new leaf, so backward succeeds but nothing reaches the interpolation
network. Here a conv decoder stands in for the NVAE; the asserts show the interpolation
network gets no gradient and keeps its weights under the SSIM loss, while the differentiable
L1 loss the script finally trains with does update it.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def struc_sim(a, b, data_range=255.0):
    """Global SSIM between two HxW uint8-range images (numpy), as in the evaluation module."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    c1, c2 = (0.01 * data_range) ** 2, (0.03 * data_range) ** 2
    mu_a, mu_b = a.mean(), b.mean()
    cov = ((a - mu_a) * (b - mu_b)).mean()
    return ((2 * mu_a * mu_b + c1) * (2 * cov + c2)) / (
        (mu_a ** 2 + mu_b ** 2 + c1) * (a.var() + b.var() + c2))


class CustomSSIMLoss(nn.Module):
    def forward(self, gens, gts):
        losses = []
        for generated, gt in zip(gens, gts):
            losses.append(1 - struc_sim(generated.detach().numpy(), gt.numpy()))
        return torch.mean(torch.tensor(losses, requires_grad=True))


class Decoder(nn.Module):
    """Frozen stand-in for the NVAE decoder: latent (8x4x4) -> 16x16 radargram."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.ConvTranspose2d(8, 8, 4, 2, 1), nn.ReLU(),
                                 nn.ConvTranspose2d(8, 1, 4, 2, 1), nn.Sigmoid())

    def forward(self, z):
        return self.net(z)[:, 0] * 255


class InterpNetConv(nn.Module):
    """Predicts the latent of the middle radargram from the two neighbouring latents."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 8, 3, padding=1))

    def forward(self, z1, z2):
        return self.net(torch.cat([z1, z2], 1))


decoder = Decoder().requires_grad_(False)
z1, z2 = torch.randn(4, 8, 4, 4), torch.randn(4, 8, 4, 4)
with torch.no_grad():
    gts = decoder(0.5 * (z1 + z2) + 0.1 * torch.randn(4, 8, 4, 4))


def train(loss_fn, steps=5):
    torch.manual_seed(1)
    model = InterpNetConv()
    w0 = [p.detach().clone() for p in model.parameters()]
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(steps):
        gens = decoder(model(z1, z2))
        loss = loss_fn(gens, gts)
        opt.zero_grad()
        loss.backward()
        grads = [p.grad for p in model.parameters()]
        opt.step()
    moved = any(not torch.equal(a, b) for a, b in zip(w0, model.parameters()))
    return grads, moved


grads, moved = train(CustomSSIMLoss())
assert all(g is None for g in grads) and not moved

grads, moved = train(nn.L1Loss(reduction="sum"))
assert all(g is not None for g in grads) and moved
print("q12 ok: numpy SSIM rebuilt with torch.tensor(..., requires_grad=True) trains nothing")
