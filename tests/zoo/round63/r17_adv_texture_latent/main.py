"""
expect: none
dynamic: dismiss
source: https://github.com/WhoTHU/Adversarial_Texture/blob/a430998c46bce6b868bbe1b22d2508038848880a/training_texture.py

Adversarial_Texture (TCA / EGA / TCEGA) learns wearable textures that hide people
from a detector. Two of its training routines are reproduced here. train_patch()
optimises the texture pixels directly with Adam and, after each optimizer.step(),
keeps them in range with adv_patch.data.clamp_(0, 1). train_z() loads the texture
generator, freezes it (p.requires_grad = False for every parameter) and optimises
the latent instead: z = z0.detach().clone(); z.requires_grad_(True); Adam([z]).
Both loops also log losses through .detach().cpu().numpy(). These lines look like
classic mistakes (a .data edit of a trained tensor, requires_grad switched on after
a detach, a frozen network in the path, detached copies of the loss), but all are
right: the clamp touches a leaf after its step, when no graph holds it; z is a new
leaf on purpose and gradients reach it through the frozen generator; freezing is
meant (only z should move); the detached values are only logged. The asserts show
the patch staying in [0, 1] and its detection loss falling; in train_z, z getting
a non-zero gradient every step and changing, the generator weights staying bit-
identical, and the detection loss falling.
"""
import numpy as np
import torch
import torch.optim as optim

from texture import TextureGenerator, TinyDetector, det_loss, random_crop, total_variation

torch.manual_seed(0)
torch.set_num_threads(1)

detector = TinyDetector().eval()
for p in detector.parameters():
    p.requires_grad = False
images = torch.rand(6, 3, 16, 16)


def train_patch(steps=60):
    adv_patch = torch.full((1, 3, 10, 10), 0.5)
    adv_patch.requires_grad_(True)
    optimizer = optim.Adam([adv_patch], lr=0.05, amsgrad=True)
    history = []
    for _ in range(steps):
        loss = det_loss(detector, images, adv_patch) + 0.1 * total_variation(adv_patch)
        history.append(float(loss.detach().cpu().numpy()))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        adv_patch.data.clamp_(0, 1)  # keep patch in image range
        assert 0.0 <= adv_patch.min().item() and adv_patch.max().item() <= 1.0
    return adv_patch, history


def train_z(gen, steps=60):
    gen.eval()
    for p in gen.parameters():
        p.requires_grad = False
    z0 = torch.randn(1, 4, 8, 8)
    z = z0.detach().clone()
    z.requires_grad_(True)
    optimizer = optim.Adam([z], lr=0.2, amsgrad=True)
    crop_gen = torch.Generator().manual_seed(0)
    history = []
    for _ in range(steps):
        z_crop = random_crop(z, 5, crop_gen)
        adv_patch = gen.generate(z_crop)
        loss = det_loss(detector, images, adv_patch) + 0.1 * total_variation(adv_patch)
        history.append(float(loss.detach().cpu().numpy()))
        loss.backward()
        assert z.grad is not None and z.grad.abs().sum() > 0
        optimizer.step()
        optimizer.zero_grad()
    return z0, z, history


patch, hist_p = train_patch()
assert np.mean(hist_p[-5:]) < np.mean(hist_p[:5]) - 0.05, (hist_p[:5], hist_p[-5:])

gen = TextureGenerator()
w_before = [p.detach().clone() for p in gen.parameters()]
z0, z, hist_z = train_z(gen)
assert not torch.equal(z0, z.detach())
assert all(torch.equal(a, b) for a, b in zip(w_before, gen.parameters()))
assert all(p.grad is None for p in gen.parameters())
assert np.mean(hist_z[-5:]) < np.mean(hist_z[:5]) - 0.01, (hist_z[:5], hist_z[-5:])

print("r17 ok: patch loss %.3f -> %.3f, latent loss %.3f -> %.3f, generator untouched"
      % (hist_p[0], hist_p[-1], hist_z[0], hist_z[-1]))
