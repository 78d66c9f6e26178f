import torch
import torch.nn as nn


class FeatureNet(nn.Module):
    """Stand-in for a frozen VGG: returns two intermediate feature maps."""

    def __init__(self):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.block2 = nn.Sequential(nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, x):
        f1 = self.block1(x)
        f2 = self.block2(f1)
        return f1, f2


def cycle_perceptual_loss(vgg, g_ab, g_ba, real_a, real_b):
    crit = nn.MSELoss()
    with torch.no_grad():
        rec_a = g_ba(g_ab(real_a))
        rec_b = g_ab(g_ba(real_b))
        fa1, fa2 = vgg(real_a)
        fb1, fb2 = vgg(real_b)
        ra1, ra2 = vgg(rec_a)
        rb1, rb2 = vgg(rec_b)
        loss = crit(ra1, fa1) + crit(ra2, fa2) + crit(rb1, fb1) + crit(rb2, fb2)
    return loss


def cycle_perceptual_loss_fixed(vgg, g_ab, g_ba, real_a, real_b):
    crit = nn.MSELoss()
    rec_a = g_ba(g_ab(real_a))
    rec_b = g_ab(g_ba(real_b))
    with torch.no_grad():
        fa1, fa2 = vgg(real_a)
        fb1, fb2 = vgg(real_b)
    ra1, ra2 = vgg(rec_a)
    rb1, rb2 = vgg(rec_b)
    return crit(ra1, fa1) + crit(ra2, fa2) + crit(rb1, fb1) + crit(rb2, fb2)
