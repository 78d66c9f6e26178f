"""
expect: GL001 50, GL001 51
dynamic: confirm
source: https://github.com/Nikronic/DetailsNet/commit/a6b90304feb360f97a0ccf1d3f7ea2e2868e8891

DetailsNet trains an image-restoration generator against two discriminators. To get rid of the "Trying to
backward through the graph a second time" error, the commit fed the generated images to both
discriminators through .detach() in the generator step as well, not only in the discriminator step. The
generator loss is then built only from discriminator outputs on a detached copy: it still has a grad_fn
(through the discriminators' own weights), so backward runs quietly, but nothing reaches the generator.
The generator optimizer is zeroed and stepped on empty gradients, so the generator never changes. This
program reproduces the two-discriminator step on tiny random images. The asserts show that with the
detached generator step the generator's gradients are None and its weights are identical after training,
while the step without detach moves the generator and raises the discriminators' score for its output.
"""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def make_generator():
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1), nn.Tanh())


def make_discriminator(stride):
    return nn.Sequential(nn.Conv2d(3, 8, 3, stride=stride, padding=1), nn.LeakyReLU(0.2),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 1))


bce = nn.BCEWithLogitsLoss()


def discriminator_step(disc_one, disc_two, d_optim, real, fake):
    d_optim.zero_grad()
    ones = torch.ones(real.size(0), 1)
    zeros = torch.zeros(real.size(0), 1)
    loss_d = (bce(disc_one(real), ones) + bce(disc_one(fake.detach()), zeros)
              + bce(disc_two(real), ones) + bce(disc_two(fake.detach()), zeros))
    loss_d.backward()
    d_optim.step()


def generator_step_as_committed(disc_one, disc_two, g_optim, fake):
    g_optim.zero_grad()
    ones = torch.ones(fake.size(0), 1)
    loss_g = bce(disc_one(fake.detach()), ones)
    loss_g = loss_g + bce(disc_two(fake.detach()), ones)
    loss_g.backward()
    g_optim.step()


def generator_step_fixed(disc_one, disc_two, g_optim, fake):
    g_optim.zero_grad()
    ones = torch.ones(fake.size(0), 1)
    loss_g = bce(disc_one(fake), ones) + bce(disc_two(fake), ones)
    loss_g.backward()
    g_optim.step()


def run(generator_step, steps=25):
    torch.manual_seed(1)
    gen = make_generator()
    disc_one, disc_two = make_discriminator(1), make_discriminator(2)
    g_optim = torch.optim.Adam(gen.parameters(), lr=5e-3)
    d_optim = torch.optim.Adam(list(disc_one.parameters()) + list(disc_two.parameters()), lr=1e-3)
    coarse = torch.rand(4, 3, 16, 16) * 2 - 1
    real = torch.rand(4, 3, 16, 16) * 2 - 1
    gen_at_start = copy.deepcopy(gen)
    gen_grad = None
    for step in range(steps):
        fake = gen(coarse)
        discriminator_step(disc_one, disc_two, d_optim, real, fake)
        generator_step(disc_one, disc_two, g_optim, fake)
        if step == 0:
            gen_grad = gen[0].weight.grad

    def fooling_score(g):
        with torch.no_grad():
            out = g(coarse)
            return (torch.sigmoid(disc_one(out)).mean() + torch.sigmoid(disc_two(out)).mean()).item()

    unchanged = all(torch.equal(a, b) for a, b in zip(gen_at_start.parameters(), gen.parameters()))
    # one more generator update against the current (now fixed) discriminators
    before = fooling_score(gen)
    for _ in range(5):
        generator_step(disc_one, disc_two, g_optim, gen(coarse))
    return gen_grad, unchanged, before, fooling_score(gen)


grad, unchanged, s0, s1 = run(generator_step_as_committed)
assert grad is None
assert unchanged and s0 == s1
print("detached generator step: generator grad None, weights unchanged")

grad, unchanged, s0, s1 = run(generator_step_fixed)
assert grad is not None and grad.abs().sum() > 0
assert not unchanged and s1 > s0, (s0, s1)
print("generator step without detach: D score of G output %.3f -> %.3f over 5 G steps" % (s0, s1))
