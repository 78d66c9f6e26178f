import torch.nn as nn


class ConvBackbone(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(width, 2 * width, 3, padding=1), nn.BatchNorm2d(2 * width), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.out_channels = 2 * width

    def forward(self, images):
        return self.features(images)


class ClassifierHead(nn.Module):
    def __init__(self, in_channels, n_classes=4):
        super().__init__()
        self.fc = nn.Linear(in_channels, n_classes)

    def forward(self, fmap):
        return self.fc(fmap.mean(dim=(2, 3)))


class BoxHead(nn.Module):
    def __init__(self, in_channels, spatial=4):
        super().__init__()
        self.reg = nn.Sequential(nn.Flatten(), nn.Linear(in_channels * spatial * spatial, 64), nn.ReLU(),
                                 nn.Linear(64, 4))

    def forward(self, fmap):
        return self.reg(fmap).sigmoid()
