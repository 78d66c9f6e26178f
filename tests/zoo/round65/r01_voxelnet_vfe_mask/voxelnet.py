"""Voxel feature encoder in the style of SECOND / VoxelNet (PointPillars-era code)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def get_paddings_indicator(actual_num, max_num, axis=0):
    """Boolean [num_voxels, max_points] mask: True where a real point is stored."""
    actual_num = torch.unsqueeze(actual_num, axis + 1)
    max_num_shape = [1] * len(actual_num.shape)
    max_num_shape[axis + 1] = -1
    max_num = torch.arange(max_num, dtype=torch.int, device=actual_num.device).view(max_num_shape)
    return actual_num.int() > max_num


class VFELayer(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.units = out_channels // 2
        self.linear = nn.Linear(in_channels, self.units)
        self.norm = nn.BatchNorm1d(self.units)

    def forward(self, inputs):
        voxel_count = inputs.shape[1]
        x = self.linear(inputs)
        x = self.norm(x.permute(0, 2, 1).contiguous()).permute(0, 2, 1).contiguous()
        pointwise = F.relu(x)
        aggregated = torch.max(pointwise, dim=1, keepdim=True)[0]
        repeated = aggregated.repeat(1, voxel_count, 1)
        return torch.cat([pointwise, repeated], dim=2)


class VoxelFeatureExtractor(nn.Module):
    def __init__(self, num_input_features=4, num_filters=(32, 64), out_channels=64,
                 mask_out_of_place=False):
        super().__init__()
        self.vfe1 = VFELayer(num_input_features + 3, num_filters[0])
        self.vfe2 = VFELayer(num_filters[0], num_filters[1])
        self.linear = nn.Linear(num_filters[1], out_channels)
        self.norm = nn.BatchNorm1d(out_channels)
        self.mask_out_of_place = mask_out_of_place

    def forward(self, features, num_voxels):
        # features: [num_voxels, max_points, C]
        points_mean = features[:, :, :3].sum(dim=1, keepdim=True) / num_voxels.type_as(features).view(-1, 1, 1)
        features_relative = features[:, :, :3] - points_mean
        features = torch.cat([features, features_relative], dim=-1)
        voxel_count = features.shape[1]
        mask = get_paddings_indicator(num_voxels, voxel_count, axis=0)
        mask = torch.unsqueeze(mask, -1).type_as(features)
        x = self.vfe1(features)
        x *= mask
        x = self.vfe2(x)
        x *= mask
        x = self.linear(x)
        x = self.norm(x.permute(0, 2, 1).contiguous()).permute(0, 2, 1).contiguous()
        x = F.relu(x)
        if self.mask_out_of_place:
            x = x * mask
        else:
            x *= mask
        voxelwise = torch.max(x, dim=1)[0]
        return voxelwise


class TinyVoxelHead(nn.Module):
    """Stand-in for the RPN: one score per voxel (objectness)."""

    def __init__(self, mask_out_of_place=False):
        super().__init__()
        self.vfe = VoxelFeatureExtractor(mask_out_of_place=mask_out_of_place)
        self.cls = nn.Linear(64, 1)

    def forward(self, features, num_voxels):
        return self.cls(self.vfe(features, num_voxels)).squeeze(-1)
