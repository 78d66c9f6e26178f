"""
expect: none
dynamic: dismiss
source: https://github.com/twtygqyy/pytorch-SRResNet/blob/8f9ffe51a4fec52e74e8b139fc316ae2828d858a/main_srgan.py

One SRGAN iteration for 2x super-resolution, laid out as in the linked training script. Several
lines look like autograd mistakes and are not: the discriminator's weights are clipped through
p.data.clamp_() before its forward pass (nothing has saved them yet); the discriminator sees
fake.detach() so its step does not touch the generator; the content target is taken as
content_real.data, a constant feature map of the real image; and content_loss.backward(...) uses
retain_graph=True because the adversarial loss backpropagates through the same generator graph a
moment later - the graph is dropped at the end of the iteration, nothing is carried over. The
asserts show that both generator losses reach the generator (each changes its gradient), that the
discriminator stays inside the clip range and learns, that the second backward really needs the
retained graph, and that the generator's content error falls over a few iterations.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class NetG(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.PReLU(),
                                  nn.Conv2d(16, 12, 3, padding=1), nn.PixelShuffle(2))

    def forward(self, x):
        return self.body(x)


class NetD(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
                                  nn.Conv2d(8, 8, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
                                  nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 1), nn.Sigmoid())

    def forward(self, x):
        return self.body(x).view(-1)


def content_net():
    # stands in for the truncated VGG19 feature extractor; it is never given to an optimizer
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1))


def train_iteration(netG, netD, netContent, optG, optD, lr_img, hr_img, clamp=0.05,
                    content_weight=1.0, adversarial_weight=1e-3, keep_graph=True):
    bce, mse = nn.BCELoss(), nn.MSELoss(reduction="sum")
    n = lr_img.shape[0]
    # (1) discriminator
    netD.zero_grad()
    for p in netD.parameters():
        p.data.clamp_(-clamp, clamp)
    errD_real = bce(netD(hr_img), torch.ones(n))
    errD_real.backward()
    fake = netG(lr_img)
    errD_fake = bce(netD(fake.detach()), torch.zeros(n))
    errD_fake.backward()
    optD.step()
    # (2) generator
    netG.zero_grad()
    netContent.zero_grad()
    fake = netG(lr_img)
    content_fake = netContent(fake)
    content_real = netContent(hr_img)
    content_real = content_real.data
    content_loss = mse(content_fake, content_real)
    content_loss.backward(torch.tensor(content_weight), retain_graph=keep_graph)
    errG = bce(netD(fake), torch.ones(n))
    errG.backward(torch.tensor(adversarial_weight))
    optG.step()
    return content_loss.item(), errG.item()


def build(seed=0):
    torch.manual_seed(seed)
    netG, netD, netC = NetG(), NetD(), content_net()
    return (netG, netD, netC, torch.optim.Adam(netG.parameters(), lr=1e-3, betas=(0.5, 0.999)),
            torch.optim.Adam(netD.parameters(), lr=1e-3, betas=(0.5, 0.999)))


torch.set_num_threads(1)
torch.manual_seed(0)
hr_img = torch.rand(4, 3, 16, 16)
lr_img = F.avg_pool2d(hr_img, 2)

# each generator loss reaches the generator
netG, netD, netC, optG, optD = build()
fake = netG(lr_img)
g_content = torch.autograd.grad(nn.MSELoss(reduction="sum")(netC(fake), netC(hr_img).data),
                                netG.body[0].weight, retain_graph=True)[0]
g_adv = torch.autograd.grad(nn.BCELoss()(netD(fake), torch.ones(4)), netG.body[0].weight)[0]
assert g_content.abs().sum() > 0 and g_adv.abs().sum() > 0

# the second generator backward needs the retained graph
netG, netD, netC, optG, optD = build()
raised = False
try:
    train_iteration(netG, netD, netC, optG, optD, lr_img, hr_img, keep_graph=False)
except RuntimeError as err:
    raised = "second time" in str(err)
assert raised

# the iteration as written trains both networks
netG, netD, netC, optG, optD = build()
d_before = netD.body[-2].weight.detach().clone()
first = None
for it in range(40):
    c_loss, g_loss = train_iteration(netG, netD, netC, optG, optD, lr_img, hr_img)
    first = c_loss if first is None else first
assert c_loss < 0.5 * first, (first, c_loss)
assert not torch.equal(d_before, netD.body[-2].weight)
assert max(p.abs().max().item() for p in netD.parameters()) <= 0.05 + 0.01  # clip, then one Adam step
print("content loss %.2f -> %.2f over 40 SRGAN iterations" % (first, c_loss))
