"""2x SR generator, a discriminator on wavelet bands, and the relativistic GAN training step."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class HaarBands(nn.Module):
    """One level of a fixed Haar transform of the luminance channel."""

    def __init__(self):
        super().__init__()
        ll = torch.tensor([[1.0, 1.0], [1.0, 1.0]]) / 2
        lh = torch.tensor([[1.0, 1.0], [-1.0, -1.0]]) / 2
        hl = torch.tensor([[1.0, -1.0], [1.0, -1.0]]) / 2
        hh = torch.tensor([[1.0, -1.0], [-1.0, 1.0]]) / 2
        self.register_buffer("kernel", torch.stack([ll, lh, hl, hh]).unsqueeze(1))

    def forward(self, img):
        luma = 0.299 * img[:, 0:1] + 0.587 * img[:, 1:2] + 0.114 * img[:, 2:3]
        bands = F.conv2d(luma, self.kernel, stride=2)
        return bands[:, :1], bands[:, 1:]


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.LeakyReLU(0.2),
                                  nn.Conv2d(16, 12, 3, padding=1))
        self.up = nn.PixelShuffle(2)

    def forward(self, lr):
        return F.interpolate(lr, scale_factor=2, mode="nearest") + self.up(self.body(lr))


class BandDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.LeakyReLU(0.2),
                                 nn.Conv2d(16, 16, 3, padding=1), nn.LeakyReLU(0.2),
                                 nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 1))

    def forward(self, bands):
        return self.net(bands)


def build_model(gan_weight=0.1, gp_weight=1.0):
    return WaveletRaGAN(Generator(), BandDiscriminator(), gan_weight, gp_weight)


class WaveletRaGAN:
    def __init__(self, net_g, net_d, gan_weight, gp_weight):
        self.net_g, self.net_d, self.bands = net_g, net_d, HaarBands()
        self.opt_g = torch.optim.Adam(net_g.parameters(), lr=2e-3, betas=(0.9, 0.999))
        self.opt_d = torch.optim.Adam(net_d.parameters(), lr=1e-3, betas=(0.9, 0.999))
        self.gan_weight, self.gp_weight = gan_weight, gp_weight
        self.bce = nn.BCEWithLogitsLoss()
        self.log = {}

    def set_d_trainable(self, flag):
        for p in self.net_d.parameters():
            p.requires_grad = flag

    def generator_loss(self, lr, hr):
        sr = self.net_g(lr)
        ll_sr, hf_sr = self.bands(sr)
        ll_hr, hf_hr = self.bands(hr)
        l_pix = F.l1_loss(ll_sr, ll_hr) + F.l1_loss(hf_sr, hf_hr)
        pred_fake = self.net_d(hf_sr)
        pred_real = self.net_d(hf_hr).detach()
        ones, zeros = torch.ones_like(pred_fake), torch.zeros_like(pred_fake)
        l_gan = (self.bce(pred_real - pred_fake.mean(), zeros)
                 + self.bce(pred_fake - pred_real.mean(), ones)) / 2
        return l_pix + self.gan_weight * l_gan, l_pix, l_gan, hf_sr, hf_hr

    def discriminator_loss(self, hf_sr, hf_hr):
        pred_real = self.net_d(hf_hr)
        pred_fake = self.net_d(hf_sr.detach())
        ones, zeros = torch.ones_like(pred_real), torch.zeros_like(pred_real)
        l_d = (self.bce(pred_real - pred_fake.mean(), ones)
               + self.bce(pred_fake - pred_real.mean(), zeros)) / 2
        alpha = torch.rand(hf_hr.shape[0], 1, 1, 1)
        interp = alpha * hf_sr.detach() + (1 - alpha) * hf_hr
        interp.requires_grad = True
        critic = self.net_d(interp)
        grad_in, = torch.autograd.grad(critic.sum(), interp, create_graph=True)
        l_gp = ((grad_in.flatten(1).norm(dim=1) - 1) ** 2).mean()
        return l_d + self.gp_weight * l_gp, l_d, l_gp

    def optimize_parameters(self, lr, hr):
        self.set_d_trainable(False)
        self.opt_g.zero_grad()
        l_g_total, l_pix, l_gan, hf_sr, hf_hr = self.generator_loss(lr, hr)
        l_g_total.backward()
        self.opt_g.step()

        self.set_d_trainable(True)
        self.opt_d.zero_grad()
        l_d_total, l_d, l_gp = self.discriminator_loss(hf_sr, hf_hr)
        l_d_total.backward()
        self.opt_d.step()
        self.log = {"l_pix": l_pix.item(), "l_gan": l_gan.item(), "l_d": l_d.item(), "l_gp": l_gp.item()}
