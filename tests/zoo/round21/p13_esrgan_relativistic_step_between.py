"""
expect: GL005 57
dynamic: confirm
source: https://github.com/Lornatang/ESRGAN-PyTorch/issues/5

Training ESRGAN (relativistic average GAN) raised "one of the variables needed for gradient
computation has been modified by an inplace operation: [torch.cuda.FloatTensor [512]]".
The discriminator's outputs on the real batch were computed once, the discriminator was
updated with d_optimizer.step(), and the generator's relativistic loss then reused those
stale outputs, whose graph still needs the discriminator weights the step overwrote. This
program reproduces the step order in a tiny super-resolution GAN. The asserts show the
generator backward raises the in-place error, and that recomputing the real-batch output
after the discriminator step trains both networks.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

generator = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.LeakyReLU(0.2),
                          nn.Upsample(scale_factor=2), nn.Conv2d(16, 3, 3, padding=1))


def make_discriminator():
    return nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
                         nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
                         nn.Flatten(), nn.Linear(32 * 4 * 4, 1))


discriminator = make_discriminator()
g_optimizer = torch.optim.Adam(generator.parameters(), lr=1e-4)
d_optimizer = torch.optim.Adam(discriminator.parameters(), lr=1e-4)
adversarial_criterion = nn.BCEWithLogitsLoss()

lr = torch.rand(4, 3, 8, 8)
hr = torch.rand(4, 3, 16, 16)
real_label = torch.ones(4, 1)
fake_label = torch.zeros(4, 1)


def relativistic(real_out, fake_out, target_real, target_fake):
    return (adversarial_criterion(real_out - fake_out.mean(), target_real)
            + adversarial_criterion(fake_out - real_out.mean(), target_fake)) / 2


def train_step(recompute_real_output):
    sr = generator(lr)

    # (1) Update D network
    discriminator.zero_grad()
    hr_output = discriminator(hr)
    sr_output = discriminator(sr.detach())
    d_loss = relativistic(hr_output, sr_output, real_label, fake_label)
    d_loss.backward(retain_graph=True)
    d_optimizer.step()

    # (2) Update G network
    generator.zero_grad()
    if recompute_real_output:
        hr_output = discriminator(hr.detach())
    sr_output = discriminator(sr)
    adversarial_loss = relativistic(hr_output, sr_output, fake_label, real_label)
    g_loss = F.l1_loss(sr, hr) + 5e-3 * adversarial_loss
    g_loss.backward()
    g_optimizer.step()
    return d_loss.item(), g_loss.item()


try:
    train_step(recompute_real_output=False)
    raise AssertionError("expected the stale discriminator graph to fail")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err)

g_before = [p.detach().clone() for p in generator.parameters()]
d_before = [p.detach().clone() for p in discriminator.parameters()]
for _ in range(3):
    train_step(recompute_real_output=True)
assert any(not torch.equal(a, b) for a, b in zip(g_before, generator.parameters())), "G trains"
assert any(not torch.equal(a, b) for a, b in zip(d_before, discriminator.parameters())), "D trains"
print("ok: step between the two backward passes breaks G; recomputing D(hr) fixes it")
