import torch.nn as nn


class MLP(nn.Module):
    def __init__(self, in_dim, n_classes, width=64):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(in_dim, width), nn.SiLU(), nn.Linear(width, width), nn.SiLU())
        self.head = nn.Linear(width, n_classes)

    def forward(self, x):
        return self.head(self.features(x))


class ResBlock(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.body = nn.Sequential(nn.LayerNorm(width), nn.Linear(width, width), nn.SiLU(), nn.Linear(width, width))

    def forward(self, x):
        return x + self.body(x)


class ResMLP(nn.Module):
    def __init__(self, in_dim, n_classes, width=64, depth=3):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(in_dim, width), *[ResBlock(width) for _ in range(depth)])
        self.head = nn.Linear(width, n_classes)

    def forward(self, x):
        return self.head(self.features(x))


MODELS = {"mlp": MLP, "resmlp": ResMLP}
