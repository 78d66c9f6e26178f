import torch.nn as nn


class AudioTagger(nn.Module):
    def __init__(self, n_mels=20, width=48, n_tags=5):
        super().__init__()
        self.frontend = nn.Sequential(nn.Linear(n_mels, width), nn.GELU())
        self.pool_proj = nn.Linear(width, width)
        self.tagger = nn.Linear(width, n_tags)

    def forward(self, spec):
        h = self.frontend(spec)
        h = self.pool_proj(h).mean(dim=1)
        return self.tagger(h)
