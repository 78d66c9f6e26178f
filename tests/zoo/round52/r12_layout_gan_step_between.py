"""expect: GL005 64
dynamic: confirm
source: https://github.com/manila95/monolayout/issues/6

A MonoLayout-style trainer: an encoder/decoder maps a camera image to a bird's-eye occupancy layout, and a
discriminator judges layouts against real map priors. The generator loss (supervised term plus adversarial
term) is backpropagated with retain_graph=True, then the generator optimiser steps, and only then is the
discriminator loss backpropagated. That discriminator loss reuses fake_pred, which was computed from the
decoder's live output, so its backward walks back into the decoder, whose conv weights were saved by the
forward and have just been updated in place by optimizer.step(). Backward raises "modified by an inplace
operation" (in the report: the decoder weight of shape [2, 16, 3, 3]). The asserts catch that error and show
that scoring a detached layout for the discriminator loss trains both networks.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class LayoutNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU())
        self.decoder = nn.Conv2d(16, 2, 3, padding=1)

    def forward(self, img):
        return self.decoder(self.encoder(img))


class LayoutCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(2, 8, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
                                 nn.Flatten(), nn.Linear(8 * 4 * 4, 1))

    def forward(self, layout):
        return self.net(layout)


class Trainer:
    def __init__(self, detach_for_critic):
        self.gen = LayoutNet()
        self.critic = LayoutCritic()
        self.opt_g = torch.optim.Adam(self.gen.parameters(), lr=1e-3)
        self.opt_d = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        self.detach_for_critic = detach_for_critic
        self.bce = nn.BCEWithLogitsLoss()

    def step(self, img, gt, prior):
        topview = self.gen(img)
        sup = F.cross_entropy(topview, gt)
        fake_pred = self.critic(topview)
        real_pred = self.critic(prior)
        ones, zeros = torch.ones_like(real_pred), torch.zeros_like(real_pred)
        loss_g = sup + 0.1 * self.bce(fake_pred, ones)
        if self.detach_for_critic:
            fake_pred = self.critic(topview.detach())
        loss_d = self.bce(fake_pred, zeros) + self.bce(real_pred, ones)

        self.opt_g.zero_grad()
        loss_g.backward(retain_graph=True)
        self.opt_g.step()
        self.opt_d.zero_grad()
        loss_d.backward()
        self.opt_d.step()
        return sup.item()


def batch():
    img = torch.randn(4, 3, 16, 16)
    gt = (img[:, :1, ::2, ::2] > 0).long().squeeze(1)
    prior = F.one_hot((torch.rand(4, 8, 8) > 0.5).long(), 2).permute(0, 3, 1, 2).float()
    return img, gt, prior


# As in the report: the generator step lands between the two backward calls through one graph.
trainer = Trainer(detach_for_critic=False)
try:
    trainer.step(*batch())
    raise AssertionError("expected backward through the stepped decoder to fail")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err)
    assert "[2, 16, 3, 3]" in str(err) or "[2]" in str(err)

# Critic scores a detached layout: its backward stops before the decoder.
trainer = Trainer(detach_for_critic=True)
critic_before = [p.detach().clone() for p in trainer.critic.parameters()]
data = [batch() for _ in range(5)]
first = trainer.step(*data[0])
for _ in range(30):
    for b in data:
        last = trainer.step(*b)
assert last < first
assert all(not torch.equal(a, b) for a, b in zip(critic_before, trainer.critic.parameters()))
print("ok: step between backward calls raises; detached critic input trains (sup %.3f -> %.3f)" % (first, last))
