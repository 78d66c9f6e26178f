import torch
import torch.nn as nn


class TinyViT(nn.Module):
    """Stand-in for the CLIP ViT: patchify, two transformer layers."""

    def __init__(self, dim=32, patch=4):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, patch, stride=patch)
        layer = nn.TransformerEncoderLayer(dim, 4, 64, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, 2)

    def forward(self, images):
        x = self.patch_embed(images).flatten(2).transpose(1, 2)
        return self.blocks(x)


class CLIPVisionTower(nn.Module):
    def __init__(self, select_feature="patch"):
        super().__init__()
        self.vision_tower = TinyViT()
        self.select_feature = select_feature
        self.vision_tower.requires_grad_(False)

    def feature_select(self, feats):
        return feats if self.select_feature == "patch" else feats[:, :1]

    @torch.no_grad()
    def forward(self, images):
        image_forward_outs = self.vision_tower(images)
        return self.feature_select(image_forward_outs).to(images.dtype)

    @property
    def hidden_size(self):
        return 32


class TrainableCLIPVisionTower(CLIPVisionTower):
    def forward(self, images):
        return self.feature_select(self.vision_tower(images)).to(images.dtype)
