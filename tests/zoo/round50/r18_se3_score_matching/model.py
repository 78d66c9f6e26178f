"""Grasp energy model: point-cloud encoder for the object plus an energy MLP over SE(3) poses."""
import torch
import torch.nn as nn


def skew(w):
    z = torch.zeros_like(w[..., 0])
    return torch.stack([torch.stack([z, -w[..., 2], w[..., 1]], -1),
                        torch.stack([w[..., 2], z, -w[..., 0]], -1),
                        torch.stack([-w[..., 1], w[..., 0], z], -1)], -2)


def se3_exp(tw):
    """(…, 6) translation + rotation vector -> (…, 4, 4) homogeneous matrix (Rodrigues)."""
    t, w = tw[..., :3], tw[..., 3:]
    theta = torch.sqrt((w * w).sum(-1, keepdim=True) + 1e-12)[..., None]
    K = skew(w) / theta
    eye = torch.eye(3).expand(K.shape)
    R = eye + torch.sin(theta) * K + (1 - torch.cos(theta)) * (K @ K)
    top = torch.cat([R, t[..., None]], -1)
    bottom = torch.tensor([0.0, 0.0, 0.0, 1.0]).expand(*top.shape[:-2], 1, 4)
    return torch.cat([top, bottom], -2)


class PointEncoder(nn.Module):
    def __init__(self, latent=16):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, 32), nn.SiLU(), nn.Linear(32, latent))

    def forward(self, pts):  # (B, P, 3) -> (B, latent)
        return self.mlp(pts).max(dim=1).values


class GraspEnergyModel(nn.Module):
    def __init__(self, latent=16, t_feats=8):
        super().__init__()
        self.encoder = PointEncoder(latent)
        self.register_buffer("freqs", torch.randn(t_feats // 2) * 4)
        self.energy = nn.Sequential(nn.Linear(12 + latent + t_feats, 64), nn.SiLU(),
                                    nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, 1, bias=False))
        self.latent = None

    def set_latent(self, pts, batch):
        self.latent = self.encoder(pts).repeat_interleave(batch, dim=0)

    def forward(self, H, t):
        t_emb = torch.cat([torch.sin(t[:, None] * self.freqs), torch.cos(t[:, None] * self.freqs)], -1)
        x = torch.cat([H[:, :3, :].flatten(1), self.latent, t_emb], -1)
        return self.energy(x).squeeze(-1)
