"""
expect: none
dynamic: dismiss
source: none, invented

A conditional GAN on toy 2-D class clusters. The epoch function receives [generator, critic] and
[gen_optim, critic_optim] as lists and unpacks them, as in many reference scripts. In each iteration the
critic is updated first (its loss uses the fake samples detached, then critic_optim.step()), and only after
that step is a fresh forward pass made through the critic to build the generator loss, which is then
backpropagated and stepped. Because the generator's graph is created after the critic's in-place update,
no saved tensor is stale and nothing is wrong. The asserts show both networks' weights change over the
epochs and the run raises no error.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_CLASSES, NOISE_DIM = 3, 8


class CondGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(N_CLASSES, 4)
        self.body = nn.Sequential(nn.Linear(NOISE_DIM + 4, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, noise, labels):
        return self.body(torch.cat([noise, self.embed(labels)], dim=1))


class CondCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(N_CLASSES, 4)
        self.body = nn.Sequential(nn.Linear(2 + 4, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, points, labels):
        return self.body(torch.cat([points, self.embed(labels)], dim=1))


def sample_real(batch=64):
    labels = torch.randint(0, N_CLASSES, (batch,))
    angle = labels.float() * (2 * torch.pi / N_CLASSES)
    centres = torch.stack([torch.cos(angle), torch.sin(angle)], dim=1) * 2.0
    return centres + 0.2 * torch.randn(batch, 2), labels


def train(epoch, models, optims, iters=25):
    generator, critic = models
    gen_optim, critic_optim = optims
    for it in range(iters):
        real, labels = sample_real()
        noise = torch.randn(real.size(0), NOISE_DIM)
        fake = generator(noise, labels)

        critic_optim.zero_grad()
        real_logit = critic(real, labels)
        fake_logit = critic(fake.detach(), labels)
        critic_loss = F.binary_cross_entropy_with_logits(real_logit, torch.ones_like(real_logit)) + \
            F.binary_cross_entropy_with_logits(fake_logit, torch.zeros_like(fake_logit))
        critic_loss.backward()
        critic_optim.step()

        gen_optim.zero_grad()
        verdict = critic(fake, labels)
        gen_loss = F.binary_cross_entropy_with_logits(verdict, torch.ones_like(verdict))
        gen_loss.backward()
        gen_optim.step()
    print("epoch %d  critic %.3f  gen %.3f" % (epoch, critic_loss.item(), gen_loss.item()))


generator, critic = CondGenerator(), CondCritic()
gen_optim = torch.optim.Adam(generator.parameters(), lr=1e-3)
critic_optim = torch.optim.Adam(critic.parameters(), lr=1e-3)
g0 = generator.body[0].weight.detach().clone()
c0 = critic.body[0].weight.detach().clone()
for epoch in range(3):
    train(epoch, [generator, critic], [gen_optim, critic_optim])
assert not torch.equal(generator.body[0].weight, g0)
assert not torch.equal(critic.body[0].weight, c0)
assert generator.embed.weight.grad is not None
