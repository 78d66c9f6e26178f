import torch.nn as nn
import torch.nn.functional as F


def negative_cosine(p, z):
    return -F.cosine_similarity(p, z, dim=-1).mean()


class SiameseNet(nn.Module):
    def __init__(self, symmetric: bool, d_in=20, d_rep=16):
        super().__init__()
        self.symmetric = symmetric
        self.backbone = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, d_rep))
        self.projector = nn.Sequential(nn.Linear(d_rep, d_rep), nn.BatchNorm1d(d_rep))
        self.predictor = nn.Sequential(nn.Linear(d_rep, 8), nn.ReLU(), nn.Linear(8, d_rep))

    def embed(self, x):
        return self.projector(self.backbone(x))

    def pair_loss(self, view_a, view_b):
        z_a, z_b = self.embed(view_a), self.embed(view_b)
        p_a = self.predictor(z_a)
        if self.symmetric:
            p_b = self.predictor(z_b)
            return 0.5 * (negative_cosine(p_a, z_b.detach()) + negative_cosine(p_b, z_a.detach()))
        return negative_cosine(p_a, z_b.detach())
