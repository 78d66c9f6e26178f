"""A miniature MedSAM: image encoder + (frozen) prompt encoder + mask decoder."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ImageEncoder(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, dim, 3, stride=2, padding=1), nn.GELU(),
                                 nn.Conv2d(dim, dim, 3, padding=1))

    def forward(self, image):
        return self.net(image)


class PromptEncoder(nn.Module):
    """Embeds a bounding box prompt (x0, y0, x1, y1) into sparse and dense embeddings."""

    def __init__(self, dim=16, size=16):
        super().__init__()
        self.box_embed = nn.Linear(4, 2 * dim)
        self.no_mask_embed = nn.Parameter(torch.zeros(1, dim, 1, 1))
        self.dim, self.size = dim, size

    def forward(self, boxes):
        sparse = self.box_embed(boxes).view(-1, 2, self.dim)
        dense = self.no_mask_embed.expand(boxes.shape[0], -1, self.size, self.size)
        return sparse, dense


class MaskDecoder(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.mix = nn.Conv2d(dim, dim, 3, padding=1)
        self.token_proj = nn.Linear(dim, dim)
        self.up = nn.ConvTranspose2d(dim, 1, 2, stride=2)

    def forward(self, image_embedding, sparse, dense):
        x = F.gelu(self.mix(image_embedding + dense))
        token = self.token_proj(sparse.mean(1))[:, :, None, None]
        return self.up(x * torch.sigmoid(token))


class MedSAM(nn.Module):
    def __init__(self):
        super().__init__()
        self.image_encoder = ImageEncoder()
        self.prompt_encoder = PromptEncoder()
        self.mask_decoder = MaskDecoder()
        for p in self.prompt_encoder.parameters():
            p.requires_grad = False

    def forward(self, image, boxes):
        image_embedding = self.image_encoder(image)
        with torch.no_grad():
            sparse, dense = self.prompt_encoder(boxes)
        return self.mask_decoder(image_embedding, sparse, dense)
