"""Toy pieces of an adversarial-texture pipeline: generator, patch pasting, detector loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TextureGenerator(nn.Module):
    """Maps a latent map z [1, zc, s, s] to a texture in [0, 1]."""

    def __init__(self, zc=4):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(zc, 16, 3, padding=1), nn.ReLU(),
                                 nn.Upsample(scale_factor=2),
                                 nn.Conv2d(16, 3, 3, padding=1))

    def generate(self, z):
        return torch.sigmoid(4.0 * self.net(z))


class TinyDetector(nn.Module):
    """Stand-in for YOLO: returns a per-image 'person' objectness score."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
                                 nn.Conv2d(8, 1, 3, stride=2, padding=1), nn.Flatten(), nn.Linear(16, 1))

    def forward(self, img):
        return torch.sigmoid(4.0 * self.net(img)).view(-1)


def random_crop(tex, size, gen):
    _, _, h, w = tex.shape
    y = int(torch.randint(0, h - size + 1, (1,), generator=gen))
    x = int(torch.randint(0, w - size + 1, (1,), generator=gen))
    return tex[..., y:y + size, x:x + size]


def apply_patch(images, patch, top=4, left=4):
    b, _, h, w = images.shape
    ph, pw = patch.shape[-2:]
    pad = (left, w - left - pw, top, h - top - ph)
    canvas = F.pad(patch.expand(b, -1, -1, -1), pad)
    mask = F.pad(torch.ones(b, 1, ph, pw), pad)
    return images * (1 - mask) + canvas * mask


def total_variation(p):
    return (p[..., 1:, :] - p[..., :-1, :]).abs().mean() + (p[..., :, 1:] - p[..., :, :-1]).abs().mean()


def det_loss(detector, images, patch):
    return detector(apply_patch(images, patch)).mean()
