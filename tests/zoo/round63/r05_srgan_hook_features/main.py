"""
expect: GL001 feature_net.py:44
dynamic: confirm
source: https://github.com/Akettle44/SRGAN-PyTorch/blob/2f56e95fbb3d5ee91331b2f5157937d26c4b2064/src/model/loss.py#L205

An SRGAN re-implementation computes the paper's VGG content loss through a
FeatureNetwork whose forward output is ignored: a forward hook on the chosen
VGG layer stores the layer output in a dict, and the generator loss reads the
features of the fake and the real HR images from that dict.  The hook stores
`output.detach()`, so the fake-image features are cut from the record: the
content term (the main term of the SRGAN generator loss) is a constant, and the
generator is trained only by the 1e-2-weighted adversarial term.  Nothing
raises because the adversarial term keeps the loss differentiable.  The
reduction keeps the hooked network (including its in-place ImageNet
normalisation of a fresh tensor, which is harmless) in `feature_net.py` and the
SRGAN step here.  The asserts show that the content term has no grad_fn and
that the generator gradient of the full loss equals the gradient of the
adversarial term alone; with the hook keeping the graph the content term
reaches the generator and changes its gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from feature_net import FeatureNetwork, FeatureNetworkKeepGraph

torch.manual_seed(0)
torch.set_num_threads(1)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Conv2d(3, 16, 3, padding=1)
        self.act = nn.PReLU()
        self.up = nn.Conv2d(16, 12, 3, padding=1)
        self.shuffle = nn.PixelShuffle(2)

    def forward(self, x):
        return torch.tanh(self.shuffle(self.up(self.act(self.head(x)))))


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


def content_loss(feature_net, hr_fake, hr_real):
    feature_net(hr_fake)
    feat_fake = feature_net.features["feats"]
    feature_net.clear_features()
    feature_net(hr_real)
    feat_real = feature_net.features["feats"]
    feature_net.clear_features()
    return F.mse_loss(feat_fake, feat_real) * 0.006


def adversarial_loss(d_fake, eps=1e-7):
    d_fake = torch.clamp(d_fake, eps, 1 - eps)
    return -torch.mean(torch.log(d_fake + eps))


def grads_of(module, loss):
    module.zero_grad()
    loss.backward()
    return [p.grad.detach().clone() for p in module.parameters()]


def srgan_step(feature_cls):
    torch.manual_seed(0)
    gen, disc, feats = Generator(), Discriminator(), feature_cls()
    d_opt = torch.optim.Adam(disc.parameters(), lr=1e-3)
    lr_img = torch.rand(2, 3, 8, 8) * 2 - 1
    hr_img = torch.rand(2, 3, 16, 16) * 2 - 1
    p_weight = 1e-2

    # discriminator update on detached generations
    fake = gen(lr_img)
    d_loss = F.binary_cross_entropy(disc(fake.detach()), torch.zeros(2, 1)) + \
        F.binary_cross_entropy(disc(hr_img), torch.ones(2, 1))
    d_opt.zero_grad()
    d_loss.backward()
    d_opt.step()

    # generator update: content + weighted adversarial
    fake = gen(lr_img)
    l_c = content_loss(feats, fake, hr_img)
    l_a = adversarial_loss(disc(fake))
    g_full = grads_of(gen, l_c + p_weight * l_a)

    fake = gen(lr_img)
    g_adv = grads_of(gen, p_weight * adversarial_loss(disc(fake)))
    same = all(torch.allclose(a, b, atol=1e-9) for a, b in zip(g_full, g_adv))
    return l_c, same


l_c, same = srgan_step(FeatureNetwork)
assert l_c.grad_fn is None and not l_c.requires_grad
assert same, "content term should contribute nothing to the generator gradient"

l_c, same = srgan_step(FeatureNetworkKeepGraph)
assert l_c.requires_grad
assert not same

print("r05 ok")
