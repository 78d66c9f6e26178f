"""
expect: none
dynamic: dismiss
source: https://github.com/xaggi/OGNet/issues/8

xaggi/OGNet ("Old is Gold" one-class anomaly detector) issue #8: with newer PyTorch versions the
original training step raised "one of the variables needed for gradient computation has been
modified by an inplace operation", because the discriminator was stepped between building and
backpropagating the generator's adversarial loss; the fix posted there restructures each update as
zero_grad -> backward -> step per network, with the discriminator loss on detached reconstructions
and a fresh discriminator pass for the generator. This program rebuilds the fixed step for a
denoising-autoencoder generator and a real/reconstruction discriminator and asserts it is correct:
an optimizer.step() sits between the two backward calls, but no saved tensor of the graph still to
be backpropagated is modified, so no error is raised, both networks move, and reconstruction
improves.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def gaussian(x, sigma=0.3):
    return x + sigma * torch.randn_like(x)


class OGNetTrainer:
    def __init__(self, dim=32):
        self.g = nn.Sequential(nn.Linear(dim, 16), nn.ReLU(), nn.Linear(16, dim))
        self.d = nn.Sequential(nn.Linear(dim, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
        self.g_optim = torch.optim.Adam(self.g.parameters(), lr=1e-3)
        self.d_optim = torch.optim.Adam(self.d.parameters(), lr=1e-3)

    def train_step(self, inputs):
        valid, fake = torch.ones(len(inputs), 1), torch.zeros(len(inputs), 1)
        g_output = self.g(gaussian(inputs))

        self.d_optim.zero_grad()
        d_loss = (F.binary_cross_entropy_with_logits(self.d(inputs), valid)
                  + F.binary_cross_entropy_with_logits(self.d(g_output.detach()), fake))
        d_loss.backward()
        self.d_optim.step()

        self.g_optim.zero_grad()
        adv = F.binary_cross_entropy_with_logits(self.d(g_output), valid)  # fresh pass after the D step
        rec = F.mse_loss(g_output, inputs)
        (0.2 * adv + rec).backward()
        self.g_optim.step()
        return rec.item()


torch.manual_seed(0)
trainer = OGNetTrainer()
normal_class = torch.randn(8, 32)                      # prototypes of the "normal" data
g0, d0 = trainer.g[0].weight.detach().clone(), trainer.d[0].weight.detach().clone()
recon = []
for step in range(150):
    inputs = normal_class[torch.randint(0, 8, (64,))] + 0.05 * torch.randn(64, 32)
    recon.append(trainer.train_step(inputs))

assert not torch.equal(g0, trainer.g[0].weight) and not torch.equal(d0, trainer.d[0].weight)
assert sum(recon[-10:]) / 10 < 0.5 * sum(recon[:10]) / 10, (recon[:3], recon[-3:])
print("p19 ok: per-network zero_grad/backward/step with a fresh D pass trains without errors")
