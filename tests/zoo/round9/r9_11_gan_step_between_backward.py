"""
expect: GL005 42
dynamic: error
source: https://github.com/pytorch/pytorch/issues/39141

The classic "GAN learns to paint sin(x)" example, arranged as a trainer class: one
forward pass computes D(real) and D(G(z)), the discriminator loss and the generator loss
from the same graph; update_discriminator() back-propagates with retain_graph=True and
steps the D optimizer, then update_generator() back-propagates the generator loss
through that same graph. The D step modifies D's weights in place while the retained
graph still holds them as saved tensors for the generator's backward, so the second
backward raises the "modified by an inplace operation" error (PyTorch >= 1.5). The
program asserts that error and that the D weights were already changed when it fired.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)

BATCH_SIZE, N_IDEAS, ART_COMPONENTS = 16, 5, 15
PAINT_POINTS = np.vstack([np.linspace(-1, 1, ART_COMPONENTS) for _ in range(BATCH_SIZE)])


def artist_works():
    a = np.random.uniform(1, 2, size=BATCH_SIZE)[:, np.newaxis]
    paintings = a * np.power(PAINT_POINTS, 2) + (a - 1)
    return torch.from_numpy(paintings).float()


class GANTrainer:
    def __init__(self):
        self.G = nn.Sequential(nn.Linear(N_IDEAS, 64), nn.ReLU(), nn.Linear(64, ART_COMPONENTS))
        self.D = nn.Sequential(nn.Linear(ART_COMPONENTS, 64), nn.ReLU(), nn.Linear(64, 1), nn.Sigmoid())
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=1e-4)
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=1e-4)

    def update_discriminator(self, d_loss):
        self.opt_d.zero_grad()
        d_loss.backward(retain_graph=True)
        self.opt_d.step()

    def update_generator(self, g_loss):
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()

    def train_step(self):
        ideas = torch.randn(BATCH_SIZE, N_IDEAS)
        fake_paintings = self.G(ideas)
        prob_real = self.D(artist_works())
        prob_fake = self.D(fake_paintings)
        d_loss = -torch.mean(torch.log(prob_real) + torch.log(1.0 - prob_fake))
        g_loss = torch.mean(torch.log(1.0 - prob_fake))
        self.update_discriminator(d_loss)
        self.update_generator(g_loss)


trainer = GANTrainer()
d_before = trainer.D[0].weight.detach().clone()
raised = None
try:
    trainer.train_step()
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised, raised
assert not torch.equal(d_before, trainer.D[0].weight), "D step should have run before the error"

print("OK")
