import torch.nn as nn


class SmallConvNet(nn.Module):
    """CIFAR-style conv net; the activation after the second conv is in-place to save memory."""

    def __init__(self, num_classes=3, activation=None):
        super().__init__()
        if activation is None:
            activation = nn.ReLU()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1),
            nn.GroupNorm(2, 8),
            nn.Conv2d(8, 8, 3, padding=1),
            activation,
            nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Linear(8, num_classes)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def build_model(num_classes=3):
    return SmallConvNet(num_classes=num_classes, activation=nn.ReLU(inplace=True))
