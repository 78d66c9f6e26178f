"""Frozen CLIP-like teacher that aligns the tokenizer's semantic features to its CLS embedding."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def info_nce(student, teacher, tau):
    s = F.normalize(student, dim=-1)
    t = F.normalize(teacher, dim=-1)
    logits = s @ t.T / tau
    return F.cross_entropy(logits, torch.arange(s.shape[0]))


class FrozenClipAligner(nn.Module):
    def __init__(self, img_dim=48, emb_dim=16, tau=0.1):
        super().__init__()
        self.tower = nn.Sequential(nn.Linear(img_dim, 32), nn.GELU(), nn.Linear(32, emb_dim))
        self.tower.requires_grad_(False)
        self.tau = tau

    @torch.no_grad()
    def cls_embedding(self, images):
        return self.tower(images.flatten(1) * 0.5 + 0.5)

    @torch.no_grad()
    def forward(self, images, semantic_feat):
        teacher = self.cls_embedding(images)
        return info_nce(semantic_feat[:, 0], teacher.detach(), self.tau)

    def forward_fixed(self, images, semantic_feat):
        teacher = self.cls_embedding(images)
        return info_nce(semantic_feat[:, 0], teacher.detach(), self.tau)
