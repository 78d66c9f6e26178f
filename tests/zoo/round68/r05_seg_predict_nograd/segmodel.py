import torch
from torch import nn


class SegmentationModel(nn.Module):
    """Small encoder-decoder with a segmentation head, smp-style API."""

    def __init__(self, in_ch=3, classes=4):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(in_ch, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.decoder = nn.Sequential(
            nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False),
            nn.Conv2d(16, 8, 3, padding=1), nn.ReLU(),
        )
        self.segmentation_head = nn.Conv2d(8, classes, 1)

    def forward(self, x):
        return self.segmentation_head(self.decoder(self.encoder(x)))

    @torch.no_grad()
    def predict(self, x):
        """Inference helper: switches to eval and runs forward without autograd."""
        if self.training:
            self.eval()
        return self.forward(x)
