"""Training buffer: features of a frozen, pretrained encoder computed once up front."""
import torch
import torch.nn as nn


class FrozenEncoder(nn.Module):
    def __init__(self, c_in=3, c_out=32):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(c_in, 16, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(16, c_out, 3, padding=1), nn.ReLU())

    def forward(self, x):
        return self.net(x)


def create_training_buffer(encoder, images, scene_coords):
    """Run the encoder once over all mapping images and keep (feature, target) pairs."""
    encoder.eval()
    feats, targets = [], []
    with torch.no_grad():
        for img, xyz in zip(images.split(8), scene_coords.split(8)):
            f = encoder(img)                                  # B x C x H x W
            feats.append(f.permute(0, 2, 3, 1).reshape(-1, f.shape[1]))
            targets.append(xyz.permute(0, 2, 3, 1).reshape(-1, 3))
    return torch.cat(feats), torch.cat(targets)
