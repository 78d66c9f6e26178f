import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Tower(nn.Module):
    def __init__(self, in_dim, emb_dim):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(in_dim, 64), nn.GELU(), nn.Linear(64, emb_dim))

    def forward(self, x):
        return F.normalize(self.mlp(x), dim=-1)


class ImageTextMatcher(nn.Module):
    """CLIP-style matcher with a learned logit scale."""

    def __init__(self, img_dim=48, txt_dim=24, emb_dim=16):
        super().__init__()
        self.image_tower = Tower(img_dim, emb_dim)
        self.text_tower = Tower(txt_dim, emb_dim)
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.5)))

    def similarity(self, img_emb, txt_emb):
        scale = self.logit_scale.detach().exp().clamp(max=100.0)
        return scale * img_emb @ txt_emb.t()

    def forward(self, images, texts):
        return self.similarity(self.image_tower(images), self.text_tower(texts))


def contrastive_loss(logits):
    targets = torch.arange(logits.size(0))
    return 0.5 * (F.cross_entropy(logits, targets) + F.cross_entropy(logits.t(), targets))
