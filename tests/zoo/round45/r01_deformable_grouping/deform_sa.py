"""Deformable set-abstraction layer for point clouds: offsets move the query centres before grouping."""
import torch
import torch.nn as nn


def knn_group(xyz, centers, feats, k):
    """Gather the k nearest points of every centre; returns relative xyz + point features."""
    dist = torch.cdist(centers, xyz)                      # (B, M, N)
    idx = dist.topk(k, dim=-1, largest=False).indices     # (B, M, k)
    b = torch.arange(xyz.shape[0])[:, None, None]
    nb_xyz = xyz[b, idx]                                  # (B, M, k, 3)
    nb_feat = feats[b, idx]                               # (B, M, k, C)
    rel = nb_xyz - centers[:, :, None, :]
    return torch.cat([rel, nb_feat], dim=-1)              # (B, M, k, 3 + C)


class DeformableSA(nn.Module):
    def __init__(self, in_feat, out_feat, k=8):
        super().__init__()
        self.k = k
        self.pred_offset = nn.Sequential(nn.Linear(3 + in_feat, 3), nn.Tanh())
        self.mlp = nn.Sequential(nn.Linear(3 + in_feat, out_feat), nn.ReLU(), nn.Linear(out_feat, out_feat))

    def learn_offset(self, xyz, feats, centers):
        grouped = knn_group(xyz, centers, feats, self.k)
        trans = self.pred_offset(grouped)                 # (B, M, k, 3)
        offset = (trans * grouped[..., :3]).mean(dim=2)   # (B, M, 3)
        return centers + offset

    def forward(self, xyz, feats, centers):
        moved = self.learn_offset(xyz, feats, centers)
        # the ball-query/grouping op "does not need gradients", so it is run without them
        with torch.no_grad():
            grouped = knn_group(xyz, moved, feats, self.k)
        out = self.mlp(grouped)
        return out.max(dim=2).values                      # (B, M, out_feat)
