"""Angular-margin classification heads for a toy face-embedding trainer."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MarginHead(nn.Module):
    """Generic head: logit_y = s * (cos(m1 * theta_y + m2) - m3), others s * cos(theta)."""

    def __init__(self, emb_dim, n_identities, scale=16.0, m1=1.0, m2=0.0, m3=0.0):
        super().__init__()
        self.linear = nn.Linear(emb_dim, n_identities, bias=False)
        self.scale = scale
        self.m1, self.m2, self.m3 = m1, m2, m3
        self.eps = 1e-6

    def cosine(self, emb):
        # keep the class weights on the unit sphere before taking the dot product
        self.linear.weight = nn.Parameter(F.normalize(self.linear.weight, dim=1))
        return self.linear(F.normalize(emb, dim=1))

    def forward(self, emb, labels):
        cos = self.cosine(emb).clamp(-1 + self.eps, 1 - self.eps)
        theta = torch.acos(cos)
        target = torch.cos(self.m1 * theta + self.m2) - self.m3
        one_hot = F.one_hot(labels, cos.size(1)).to(cos.dtype)
        out = one_hot * target + (1.0 - one_hot) * cos
        return out * self.scale


class MarginHeadFixed(MarginHead):
    """Same head, but the weight is normalized inside the graph and never replaced."""

    def cosine(self, emb):
        return F.linear(F.normalize(emb, dim=1), F.normalize(self.linear.weight, dim=1))


class ArcFaceHead(MarginHead):
    def __init__(self, emb_dim, n_identities, scale=16.0, margin=0.3):
        super().__init__(emb_dim, n_identities, scale=scale, m2=margin)


class ArcFaceHeadFixed(MarginHeadFixed):
    def __init__(self, emb_dim, n_identities, scale=16.0, margin=0.3):
        super().__init__(emb_dim, n_identities, scale=scale, m2=margin)
