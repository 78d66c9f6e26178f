"""
expect: GL001 79
dynamic: confirm
source: https://github.com/unique-chan/SRGAN/blob/acf30b2034c24d2077ddacc6e774fa2e49efc867/2_SRGAN/SRGAN_utils.py#L80

In this SRGAN training loop the discriminator step computes `d_i_sr`, the
discriminator's score of `generator(lr_img).detach()`, steps the
discriminator, and then the generator step regenerates `sr_img` but builds
its adversarial term from the old score after one more `d_i_sr =
d_i_sr.detach()`.  The adversarial loss therefore depends on neither the new
super-resolved image nor the generator: it is a constant added to the content
loss, and the generator trains as a plain SRResNet while the logs show an
adversarial loss that seems to take part.  (The `retain_graph=True` on the
discriminator backward is unnecessary but harmless here: nothing goes through
that graph again.)  The reduction keeps the two-phase loop with a tiny
generator, discriminator and a frozen-conv content loss.  The asserts show
that the adversarial term has no grad_fn and that the generator gradient
equals the gradient of the content loss alone; the fixed step scores the fresh
`sr_img` with the updated discriminator, and its adversarial term changes the
generator gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

bce_loss_function = nn.BCELoss()


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.PReLU(), nn.Conv2d(16, 12, 3, padding=1), nn.PixelShuffle(2))

    def forward(self, x):
        return self.body(x)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.Conv2d(8, 8, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 1), nn.Sigmoid(),
        )

    def forward(self, x):
        return self.body(x)


class FeatureContentLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        for p in self.features.parameters():
            p.requires_grad = False

    def forward(self, hr, sr):
        return F.mse_loss(self.features(sr), self.features(hr))


def train_batch(generator, discriminator, g_optimizer, d_optimizer, content_loss_function, lr_img, hr_img):
    # (1) discriminator
    d_optimizer.zero_grad()
    sr_img = generator(lr_img).detach()
    d_i_hr = discriminator(hr_img).flatten()
    d_i_sr = discriminator(sr_img).flatten()
    d_loss = bce_loss_function(d_i_hr, torch.ones_like(d_i_hr)) + bce_loss_function(d_i_sr, torch.zeros_like(d_i_sr))
    d_loss.backward(retain_graph=True)
    d_optimizer.step()

    # (2) generator
    g_optimizer.zero_grad()
    hr_img = hr_img.detach()
    sr_img = generator(lr_img)
    d_i_sr = d_i_sr.detach()
    content_loss = content_loss_function(hr_img, sr_img)
    adversarial_loss = bce_loss_function(d_i_sr, torch.ones_like(d_i_sr))
    g_loss = 1 * content_loss + 1e-3 * adversarial_loss
    g_loss.backward()
    grads = [p.grad.clone() for p in generator.parameters()]
    g_optimizer.step()
    return adversarial_loss, grads


def train_batch_fixed(generator, discriminator, g_optimizer, d_optimizer, content_loss_function, lr_img, hr_img):
    d_optimizer.zero_grad()
    sr_img = generator(lr_img)
    d_i_hr = discriminator(hr_img).flatten()
    d_i_sr = discriminator(sr_img.detach()).flatten()
    d_loss = bce_loss_function(d_i_hr, torch.ones_like(d_i_hr)) + bce_loss_function(d_i_sr, torch.zeros_like(d_i_sr))
    d_loss.backward()
    d_optimizer.step()

    g_optimizer.zero_grad()
    d_i_sr = discriminator(sr_img).flatten()
    content_loss = content_loss_function(hr_img, sr_img)
    adversarial_loss = bce_loss_function(d_i_sr, torch.ones_like(d_i_sr))
    g_loss = 1 * content_loss + 1e-3 * adversarial_loss
    g_loss.backward()
    grads = [p.grad.clone() for p in generator.parameters()]
    g_optimizer.step()
    return adversarial_loss, grads


def content_only_grads(generator, content_fn, lr_img, hr_img):
    generator.zero_grad()
    content_fn(hr_img, generator(lr_img)).backward()
    return [p.grad.clone() for p in generator.parameters()]


def check(step_fn):
    torch.manual_seed(0)
    gen, disc, content = Generator(), Discriminator(), FeatureContentLoss()
    g_opt = torch.optim.SGD(gen.parameters(), lr=0.0)  # lr 0: compare gradients at fixed weights
    d_opt = torch.optim.Adam(disc.parameters(), lr=1e-3)
    lr_img, hr_img = torch.rand(2, 3, 8, 8), torch.rand(2, 3, 16, 16)
    reference = content_only_grads(gen, content, lr_img, hr_img)
    adv, grads = step_fn(gen, disc, g_opt, d_opt, content, lr_img, hr_img)
    same = all(torch.allclose(a, b, atol=1e-10) for a, b in zip(grads, reference))
    return adv, same


adv, same = check(train_batch)
assert adv.grad_fn is None and not adv.requires_grad
assert same, "adversarial term should not reach the generator"

adv, same = check(train_batch_fixed)
assert adv.requires_grad
assert not same

print("r08 ok")
