"""expect: GL005 74
dynamic: confirm
source: https://github.com/tamarott/SinGAN/issues/148

Single-scale SinGAN training: a WGAN-GP critic is updated for a few steps,
the last critic step producing `fake = G(noise, prev)`. The generator loop then
runs several generator steps that all reuse that same `fake`: each step
re-scores it with the critic and backpropagates (with retain_graph=True so the
generator part of the graph can be walked again) and then calls
optimizerG.step(). The step updates the generator's weights in place, but the
retained graph behind `fake` saved the old weights for backward, so the second
generator step's backward hits tensors whose version changed and fails with
"modified by an inplace operation" (older PyTorch silently used the updated
weights and computed wrong gradients).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvBlock(nn.Sequential):
    def __init__(self, cin, cout):
        super().__init__(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.LeakyReLU(0.2))


class Generator(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.body = nn.Sequential(ConvBlock(3, ch), ConvBlock(ch, ch))
        self.tail = nn.Sequential(nn.Conv2d(ch, 3, 3, padding=1), nn.Tanh())

    def forward(self, noise, prev):
        return self.tail(self.body(noise)) + prev


class Critic(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.net = nn.Sequential(ConvBlock(3, ch), nn.Conv2d(ch, 1, 3, padding=1))

    def forward(self, x):
        return self.net(x)


def gradient_penalty(critic, real, fake, weight=0.1):
    alpha = torch.rand(1, 1, 1, 1)
    mix = (alpha * real + (1 - alpha) * fake.detach()).requires_grad_(True)
    out = critic(mix)
    grads = torch.autograd.grad(out.sum(), mix, create_graph=True)[0]
    return weight * ((grads.norm(2, dim=1) - 1) ** 2).mean()


def train_single_scale(netG, netD, real, niter=2, d_steps=3, g_steps=3, alpha=10.0):
    optimizerD = torch.optim.Adam(netD.parameters(), lr=5e-4, betas=(0.5, 0.999))
    optimizerG = torch.optim.Adam(netG.parameters(), lr=5e-4, betas=(0.5, 0.999))
    prev = torch.zeros_like(real)
    z_opt = torch.randn_like(real)
    for _ in range(niter):
        for _ in range(d_steps):
            netD.zero_grad()
            noise = torch.randn_like(real)
            fake = netG(noise, prev)
            errD = -netD(real).mean() + netD(fake.detach()).mean()
            errD = errD + gradient_penalty(netD, real, fake)
            errD.backward()
            optimizerD.step()

        for _ in range(g_steps):
            netG.zero_grad()
            errG = -netD(fake).mean()
            errG.backward(retain_graph=True)
            rec_loss = alpha * F.mse_loss(netG(z_opt, prev), real)
            rec_loss.backward()
            optimizerG.step()


def main():
    torch.manual_seed(0)
    real = torch.rand(1, 3, 12, 12) * 2 - 1
    try:
        train_single_scale(Generator(), Critic(), real)
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err
        print("second generator step backpropagated through weights the optimizer had already changed")
    else:
        raise AssertionError("expected the in-place version check to fire")


if __name__ == "__main__":
    main()
