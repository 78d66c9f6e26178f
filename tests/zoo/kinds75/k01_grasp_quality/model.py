"""Grasp-quality network: a point-cloud encoder plus a quality head."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PointEncoder(nn.Module):
    def __init__(self, in_dim=3, width=64, out_dim=32):
        super().__init__()
        self.mlp = nn.Sequential(
            nn.Linear(in_dim, width), nn.ReLU(),
            nn.Linear(width, out_dim),
        )

    def forward(self, pts):                      # pts: (B, N, 3)
        feats = self.mlp(pts)                    # (B, N, D)
        return feats.max(dim=1).values           # symmetric pooling -> (B, D)


class GraspQualityNet(nn.Module):
    def __init__(self, feat_dim=32, grasp_dim=7):
        super().__init__()
        self.encoder = PointEncoder(out_dim=feat_dim)
        self.head = nn.Sequential(
            nn.Linear(feat_dim + grasp_dim, 64), nn.ReLU(), nn.Linear(64, 1)
        )

    @torch.no_grad()
    def embed_scene(self, cloud):
        # centre the cloud then encode it (also reused by the planner at run time)
        centred = cloud - cloud.mean(dim=1, keepdim=True)
        return self.encoder(centred)

    def score(self, scene_feat, grasp):
        return self.head(torch.cat([scene_feat, grasp], dim=-1)).squeeze(-1)

    def compute_loss(self, batch):
        cloud, grasp, success = batch
        scene_feat = self.embed_scene(cloud)
        logits = self.score(scene_feat, grasp)
        return F.binary_cross_entropy_with_logits(logits, success)


class GraspQualityNetFixed(GraspQualityNet):
    """Same network, but the scene embedding is recorded during training."""

    def embed_scene(self, cloud):
        centred = cloud - cloud.mean(dim=1, keepdim=True)
        return self.encoder(centred)
