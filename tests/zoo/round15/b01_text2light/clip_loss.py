"""Text-image alignment term for a panorama sampler (helper module)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FrozenImageEmbedder(nn.Module):
    """Stands in for a pretrained CLIP image tower; its weights stay fixed."""

    def __init__(self, pixels, dim):
        super().__init__()
        self.proj = nn.Linear(pixels, dim)
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, image):
        return self.proj(image.flatten(1))


class FrozenDecoder(nn.Module):
    """Stands in for the VQ decoder that maps soft codes to pixels."""

    def __init__(self, code_dim, pixels):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(code_dim, 64), nn.Tanh(), nn.Linear(64, pixels))
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, codes):
        return self.net(codes)


def alignment_loss(decoder, embedder, soft_codes, text_emb, temperature=0.07):
    """Contrastive loss between decoded panoramas and their text embeddings."""
    with torch.no_grad():
        img_emb = embedder(decoder(soft_codes))
    img_emb = F.normalize(img_emb, dim=-1)
    txt = F.normalize(text_emb, dim=-1)
    logits = img_emb @ txt.t() / temperature
    target = torch.arange(logits.shape[0])
    return F.cross_entropy(logits, target)
