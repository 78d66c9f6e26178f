"""Sparse-voxel encoder: positional embedding plus normals splatted from the input points."""
import torch
import torch.nn as nn


def pos_embed(xyz, n_freq=4):
    freqs = 2.0 ** torch.arange(n_freq, dtype=xyz.dtype)
    angles = xyz.unsqueeze(-1) * freqs
    return torch.cat([xyz, torch.sin(angles).flatten(1), torch.cos(angles).flatten(1)], dim=1)


class VoxelEncoder(nn.Module):
    def __init__(self, c_dim=16, n_freq=4, normalize_inplace=True):
        super().__init__()
        self.n_freq = n_freq
        self.normalize_inplace = normalize_inplace
        self.log_bandwidth = nn.Parameter(torch.tensor(-1.0))  # learnable splatting kernel width
        self.mix_fc = nn.Linear(3 + 6 * n_freq + 3, c_dim)

    def splat(self, voxel_xyz, points, normals):
        d2 = torch.cdist(voxel_xyz, points) ** 2
        weights = torch.softmax(-d2 / torch.exp(self.log_bandwidth) ** 2, dim=1)
        return weights @ normals

    def forward(self, voxel_xyz, points, normals):
        feat = pos_embed(voxel_xyz, self.n_freq)
        voxel_normal = self.splat(voxel_xyz, points, normals)
        if self.normalize_inplace:
            voxel_normal /= voxel_normal.norm(dim=1, keepdim=True) + 1e-6
        else:
            voxel_normal = voxel_normal / (voxel_normal.norm(dim=1, keepdim=True) + 1e-6)
        return self.mix_fc(torch.cat([feat, voxel_normal], dim=1))
