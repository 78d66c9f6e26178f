"""
expect: GL005 44
dynamic: confirm
source: https://github.com/tamarott/SinGAN/pull/126

SinGAN trains each scale with a few discriminator steps and then a few generator
steps. The fake image is produced once by netG and reused in every generator
step, so the second errG.backward() runs through a graph whose saved netG weights
were already overwritten in place by optimizerG.step(). Since PyTorch 1.5 the
optimizer bumps the version counter and the second backward fails (older versions
silently used stale activations). The asserts show the error and the changed weight
version, and that regenerating the fake inside the loop trains netG.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class ScaleGAN:
    def __init__(self):
        self.netG = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(8, 3, 3, padding=1))
        self.netD = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 3, padding=1))
        self.optG = torch.optim.Adam(self.netG.parameters(), lr=5e-4)
        self.optD = torch.optim.Adam(self.netD.parameters(), lr=5e-4)

    def d_steps(self, real, noise, n=3):
        for _ in range(n):
            self.optD.zero_grad()
            fake = self.netG(noise)
            err = -self.netD(real).mean() + self.netD(fake.detach()).mean()
            err.backward()
            self.optD.step()
        return fake

    def g_steps(self, fake, real, noise, n=3, regenerate=False):
        for _ in range(n):
            if regenerate:
                fake = self.netG(noise)
            self.optG.zero_grad()
            err = -self.netD(fake).mean() + 10 * (self.netG(noise) - real).pow(2).mean()
            err.backward(retain_graph=True)
            self.optG.step()


gan = ScaleGAN()
real = torch.rand(1, 3, 12, 12)
noise = torch.randn(1, 3, 12, 12)

fake = gan.d_steps(real, noise)
w = gan.netG[2].weight
v0 = w._version
err_msg = None
try:
    gan.g_steps(fake, real, noise)
except RuntimeError as e:
    err_msg = str(e)
assert err_msg is not None and "modified by an inplace operation" in err_msg
assert w._version > v0

before = [p.detach().clone() for p in gan.netG.parameters()]
fake = gan.d_steps(real, noise)
gan.g_steps(fake, real, noise, regenerate=True)
assert all(not torch.equal(a, p) for a, p in zip(before, gan.netG.parameters()))
print("ok")
