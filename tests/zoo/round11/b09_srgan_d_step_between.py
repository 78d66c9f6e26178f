"""
expect: GL005 59
dynamic: confirm
source: https://github.com/leftthomas/SRGAN/issues/89

The report: SRGAN's train loop fails on PyTorch >= 1.5 with "one of the variables needed for gradient
computation has been modified by an inplace operation: [torch.FloatTensor [1, 1024, 1, 1]] is at
version 2; expected version 1"; the suggested fix was to step both optimizers only after both
backward calls. This program rebuilds the loop: the discriminator score of the fake image is computed
once, d_loss.backward(retain_graph=True), optimizerD.step() updates D's weights in place, then
g_loss backpropagates through the same D graph. The asserts catch the RuntimeError naming the in-place
modification, and show the reordered loop (score recomputed after D's step) runs and trains G.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.PReLU(), nn.Conv2d(8, 3, 3, padding=1))
        self.up = nn.Upsample(scale_factor=2)

    def forward(self, lr):
        return torch.tanh(self.body(self.up(lr)))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.AdaptiveAvgPool2d(1), nn.Conv2d(8, 16, 1), nn.LeakyReLU(0.2), nn.Conv2d(16, 1, 1),
        )

    def forward(self, img):
        return torch.sigmoid(self.net(img)).view(-1)


def generator_loss(fake_out, fake_img, real_img):
    return F.mse_loss(fake_img, real_img) + 1e-3 * (1 - fake_out).mean()


def run(reorder):
    torch.manual_seed(0)
    netG, netD = Generator(), Discriminator()
    optimizerG = torch.optim.Adam(netG.parameters(), lr=1e-3)
    optimizerD = torch.optim.Adam(netD.parameters(), lr=1e-3)
    lr_img, real_img = torch.randn(2, 3, 8, 8), torch.randn(2, 3, 16, 16)
    g0 = netG.body[0].weight.detach().clone()

    fake_img = netG(lr_img)
    real_out = netD(real_img).mean()
    fake_out = netD(fake_img).mean()
    d_loss = 1 - real_out + fake_out
    optimizerD.zero_grad()
    d_loss.backward(retain_graph=True)
    optimizerD.step()

    if reorder:
        fake_out = netD(fake_img).mean()
    g_loss = generator_loss(fake_out, fake_img, real_img)
    optimizerG.zero_grad()
    g_loss.backward()
    optimizerG.step()
    return not torch.equal(g0, netG.body[0].weight)


try:
    run(reorder=False)
    raise SystemExit("expected the in-place version error")
except RuntimeError as err:
    assert "inplace" in str(err), err
    print("caught:", str(err).split(":")[0])

assert run(reorder=True)
print("ok: D's optimizer step between the two backward calls invalidated the shared graph")
