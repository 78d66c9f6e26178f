import torch
import torch.nn as nn


class FusionGenerator(nn.Module):
    """Two MR modalities in, one synthesized modality out (plus the two
    reconstructions of the inputs used as auxiliary targets)."""

    def __init__(self, ch=8):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv2d(1, ch, 3, padding=1), nn.LeakyReLU(0.2))
        self.enc2 = nn.Sequential(nn.Conv2d(1, ch, 3, padding=1), nn.LeakyReLU(0.2))
        self.fuse = nn.Sequential(nn.Conv2d(2 * ch, ch, 3, padding=1), nn.LeakyReLU(0.2))
        self.head_fake = nn.Conv2d(ch, 1, 3, padding=1)
        self.head_re1 = nn.Conv2d(ch, 1, 3, padding=1)
        self.head_re2 = nn.Conv2d(ch, 1, 3, padding=1)

    def forward(self, x_fu):
        f1 = self.enc1(x_fu[:, :1])
        f2 = self.enc2(x_fu[:, 1:])
        fused = self.fuse(torch.cat([f1, f2], dim=1))
        return torch.tanh(self.head_fake(fused)), self.head_re1(f1), self.head_re2(f2)


class PatchCritic(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, ch, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.Conv2d(ch, 1, 4, stride=2, padding=1),
        )

    def forward(self, x):
        return self.net(x)
