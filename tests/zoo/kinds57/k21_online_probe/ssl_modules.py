import torch.nn as nn
import torch.nn.functional as F


class DenoisingAutoencoder(nn.Module):
    def __init__(self, in_dim=64, latent=16):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, 128), nn.GELU(), nn.Linear(128, latent))
        self.decoder = nn.Sequential(nn.Linear(latent, 128), nn.GELU(), nn.Linear(128, in_dim))

    def forward(self, noisy):
        z = self.encoder(noisy)
        return z, self.decoder(z)


class OnlineProbe(nn.Module):
    """Linear classifier tracking representation quality during pre-training."""

    def __init__(self, latent=16, n_classes=5):
        super().__init__()
        self.fc = nn.Linear(latent, n_classes)

    def forward(self, features, labels):
        logits = self.fc(features.detach())
        return logits, F.cross_entropy(logits, labels)
