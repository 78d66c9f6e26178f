"""
expect: none
dynamic: dismiss
source: https://github.com/KrnTneja/PyTorch-Implementation-of-Semantic-Image-Inpainting-with-Deep-Generative-Models/blob/d84afd59bde284d6c86e5c33942e9fd7966351d8/model/inpaint.py#L53

This implementation of "Semantic Image Inpainting with Deep Generative Models"
first searches the latent code z of a trained GAN (z is an nn.Parameter,
context loss on the known pixels plus a discriminator prior), and then runs
Poisson blending. For blending it builds the blended image as
`nn.Parameter(torch.FloatTensor(initial_guess.detach().cpu().numpy()))`, i.e.
the generator's output goes through NumPy and comes back as a brand-new leaf,
passes `generated_images.detach()` as the fixed gradient target, and overwrites
`image_optimum.grad` with a masked copy after each backward. A value rebuilt
from NumPy with requires_grad looks like a lost graph, but here the blended
pixels are the only thing being optimised and the generator must stay fixed, so
the round trip is the intended way to start a new optimisation from a constant
initial guess. The program checks that the latent search lowers the context
loss without touching the generator weights, that blending lowers the
gradient-matching loss, and that the known pixels stay exactly as observed
because their gradient is masked to zero.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

SIDE, LATENT = 8, 6

generator = nn.Sequential(nn.Linear(LATENT, 64), nn.Tanh(), nn.Linear(64, SIDE * SIDE), nn.Tanh())
discriminator = nn.Sequential(nn.Linear(SIDE * SIDE, 16), nn.ReLU(), nn.Linear(16, 1), nn.Sigmoid())


def generate(z):
    return generator(z).view(-1, 1, SIDE, SIDE)


def image_gradient(img):
    kx = torch.tensor([[[[1.0, 0.0, -1.0], [2.0, 0.0, -2.0], [1.0, 0.0, -1.0]]]])
    return F.conv2d(img, kx, padding=1), F.conv2d(img, kx.transpose(2, 3), padding=1)


# a "real" image: a generator sample plus a brightness ramp the generator cannot produce
with torch.no_grad():
    ramp = torch.linspace(0.0, 0.6, SIDE).view(1, 1, 1, SIDE).expand(1, 1, SIDE, SIDE)
    original = generate(torch.randn(1, LATENT)) + ramp
mask = torch.ones(1, 1, SIDE, SIDE)          # 1 = known pixel
mask[:, :, 2:6, 2:6] = 0.0
corrupted = original * mask

g_weights_before = [p.detach().clone() for p in generator.parameters()]

# stage 1: search the latent code
z_optimum = nn.Parameter(torch.randn(1, LATENT))
optimizer_inpaint = torch.optim.Adam([z_optimum], lr=0.05)
for epoch in range(300):
    optimizer_inpaint.zero_grad()
    generated = generate(z_optimum)
    c_loss = torch.sum(((corrupted - generated) ** 2) * mask)
    prior_loss = torch.sum(-torch.log(discriminator(generated.view(1, -1)) + 1e-8))
    inpaint_loss = c_loss + 0.003 * prior_loss
    inpaint_loss.backward()
    optimizer_inpaint.step()
    if epoch == 0:
        first_context = c_loss.item()
assert c_loss.item() < 0.7 * first_context, (first_context, c_loss.item())
for before, p in zip(g_weights_before, generator.parameters()):
    assert torch.equal(before, p.detach())

# stage 2: Poisson blending on a fresh parameter rebuilt through NumPy
generated = generated.detach()
initial_guess = mask * corrupted + (1 - mask) * generated
image_optimum = nn.Parameter(torch.FloatTensor(initial_guess.detach().cpu().numpy()))
optimizer_blending = torch.optim.Adam([image_optimum], lr=0.01)
gen_gx, gen_gy = image_gradient(generated)
for epoch in range(200):
    optimizer_blending.zero_grad()
    gx, gy = image_gradient(image_optimum)
    blending_loss = torch.sum(((gen_gx - gx) ** 2 + (gen_gy - gy) ** 2) * (1 - mask))
    blending_loss.backward()
    image_optimum.grad = image_optimum.grad * (1 - mask)
    optimizer_blending.step()
    if epoch == 0:
        first_blend = blending_loss.item()

assert blending_loss.item() < 0.5 * first_blend, (first_blend, blending_loss.item())
known = mask.bool()
assert torch.equal(image_optimum.detach()[known], initial_guess[known])
assert image_optimum.grad_fn is None and image_optimum.is_leaf
print(f"context loss {first_context:.3f} -> {c_loss.item():.4f}; "
      f"blending loss {first_blend:.4f} -> {blending_loss.item():.4f}")
