"""
expect: GL005 38
dynamic: confirm
source: kind C

A small GAN learner that synthesises mel-spectrogram frames: `losses` returns
(disc_loss, gen_loss) and is called as `self.losses(*batch)`. `train_step` backpropagates
the discriminator loss and steps the discriminator optimizer before backpropagating the
generator loss, whose graph passes through the discriminator, so it raises a RuntimeError
mentioning "inplace"; the asserts catch that and show the reordered step updates the generator.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MelGANLearner:
    def __init__(self, noise_dim=8, n_mels=20):
        self.noise_dim = noise_dim
        self.gen = nn.Sequential(nn.Linear(noise_dim, 32), nn.ReLU(), nn.Linear(32, n_mels))
        self.disc = nn.Sequential(nn.Linear(n_mels, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
        self.g_opt = torch.optim.Adam(self.gen.parameters(), lr=2e-4)
        self.d_opt = torch.optim.Adam(self.disc.parameters(), lr=2e-4)

    def losses(self, real_frames, noise):
        fake = self.gen(noise)
        ones = torch.ones(real_frames.shape[0], 1)
        zeros = torch.zeros(noise.shape[0], 1)
        d_loss = (F.binary_cross_entropy_with_logits(self.disc(real_frames), ones)
                  + F.binary_cross_entropy_with_logits(self.disc(fake.detach()), zeros))
        g_loss = F.binary_cross_entropy_with_logits(self.disc(fake), torch.ones_like(zeros))
        return d_loss, g_loss

    def train_step(self, batch):
        d_loss, g_loss = self.losses(*batch)
        self.d_opt.zero_grad()
        d_loss.backward()
        self.d_opt.step()
        self.g_opt.zero_grad()
        g_loss.backward()
        self.g_opt.step()

    def train_step_fixed(self, batch):
        d_loss, g_loss = self.losses(*batch)
        self.g_opt.zero_grad()
        g_loss.backward()
        self.g_opt.step()
        self.d_opt.zero_grad()
        d_loss.backward()
        self.d_opt.step()


torch.manual_seed(0)
batch = (torch.randn(8, 20), torch.randn(8, 8))

learner = MelGANLearner()
try:
    learner.train_step(batch)
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "inplace" in raised, raised

learner = MelGANLearner()
before = learner.gen[0].weight.detach().clone()
learner.train_step_fixed(batch)
assert not torch.equal(learner.gen[0].weight, before)
print("c2 ok")
