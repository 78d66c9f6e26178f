"""
expect: GL002 spectral.py:24
dynamic: confirm
source: https://github.com/cc-hpc-itwm/UpConv/issues/5

A small DCGAN-style generator is trained with an extra spectral regulariser: the 1-D
azimuthal power spectrum of generated images should match the one of real images. The
helper in spectral.py computes that spectrum with NumPy (the image is taken out with
.detach().numpy(), FFT'd, averaged) and hands it back as a brand-new tensor made with
torch.from_numpy. The rebuilt profile has no grad_fn, so the BCE between the two profiles is
a constant as far as autograd is concerned: adding 15 * loss_freq to the generator loss
changes the loss value but not a single gradient, and the frequency term never steers the
generator (in the linked repository the same NumPy round trip feeds the discriminator loss,
where it is equally inert). The asserts show that the generator gradient with and without
the spectral term is identical, that the term itself does not require grad, and that the
same profile written with torch.fft does reach the generator weights.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from spectral import spectrum_profiles, spectrum_profiles_torch

torch.manual_seed(0)
torch.set_num_threads(1)

Z_DIM, NBINS, SIZE = 16, 8, 16


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(Z_DIM, 32 * 4 * 4)
        self.up = nn.Sequential(
            nn.ConvTranspose2d(32, 16, 4, 2, 1), nn.ReLU(),
            nn.ConvTranspose2d(16, 3, 4, 2, 1), nn.Tanh(),
        )

    def forward(self, z):
        return self.up(self.fc(z).view(-1, 32, 4, 4))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, 16, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Conv2d(16, 32, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Flatten(), nn.Linear(32 * 4 * 4, 1),
        )

    def forward(self, x):
        return self.net(x)


def generator_objective(G, D, z, x_real, profile_fn, weight=15.0):
    x_fake = G(z)
    adv = F.binary_cross_entropy_with_logits(D(x_fake), torch.ones(z.shape[0], 1))
    fake_prof = profile_fn(x_fake, NBINS)
    real_prof = profile_fn(x_real, NBINS)
    loss_freq = F.binary_cross_entropy(fake_prof.clamp(1e-4, 1 - 1e-4), real_prof)
    return adv, loss_freq, adv + weight * loss_freq


def generator_grads(G, loss):
    G.zero_grad()
    loss.backward()
    return [p.grad.clone() for p in G.parameters()]


G, D = Generator(), Discriminator()
opt_G = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
z = torch.randn(8, Z_DIM)
x_real = torch.rand(8, 3, SIZE, SIZE) * 2 - 1

# --- the code as written: NumPy spectrum, rebuilt with torch.from_numpy -------------------
adv, loss_freq, total = generator_objective(G, D, z, x_real, spectrum_profiles)
assert loss_freq.item() > 0.0
assert not loss_freq.requires_grad and loss_freq.grad_fn is None
grads_total = generator_grads(G, total)
adv_only, _, _ = generator_objective(G, D, z, x_real, spectrum_profiles)
grads_adv = generator_grads(G, adv_only)
assert all(torch.equal(a, b) for a, b in zip(grads_total, grads_adv)), "spectral term moved G"

# --- intended: same profile with torch.fft keeps the path to the generator ----------------
_, loss_freq_t, _ = generator_objective(G, D, z, x_real, spectrum_profiles_torch)
assert loss_freq_t.requires_grad
G.zero_grad()
loss_freq_t.backward()
freq_grad_norm = sum(p.grad.norm() for p in G.parameters() if p.grad is not None)
assert freq_grad_norm > 0, "torch.fft profile should reach the generator"

opt_G.step()
print(f"numpy spectral term {loss_freq.item():.4f}: no grad_fn, generator gradient unchanged")
print(f"torch.fft spectral term {loss_freq_t.item():.4f}: gradient norm on G {freq_grad_norm:.4e}")
