"""Learnable per-camera pose offsets and a frozen scene renderer (stand-in for a trained NeRF)."""
import torch
import torch.nn as nn


def axis_angle_to_matrix(omega):
    # Rodrigues' formula for a single 3-vector
    theta = omega.norm() + 1e-8
    k = omega / theta
    K = torch.zeros(3, 3, dtype=omega.dtype)
    K[0, 1], K[0, 2] = -k[2], k[1]
    K[1, 0], K[1, 2] = k[2], -k[0]
    K[2, 0], K[2, 1] = -k[1], k[0]
    eye = torch.eye(3, dtype=omega.dtype)
    return eye + torch.sin(theta) * K + (1 - torch.cos(theta)) * (K @ K)


class MultiCameraTransform(nn.Module):
    """One rotation/translation correction per optimised camera."""

    def __init__(self, num_cameras):
        super().__init__()
        self.rot = nn.Parameter(torch.full((num_cameras, 3), 1e-3))
        self.trans = nn.Parameter(torch.zeros(num_cameras, 3))

    def forward(self, cam_index, initial_pose):
        R = axis_angle_to_matrix(self.rot[cam_index])
        top = torch.cat([R, self.trans[cam_index].unsqueeze(1)], dim=1)
        delta = torch.cat([top, torch.tensor([[0.0, 0.0, 0.0, 1.0]])], dim=0)
        return (delta @ initial_pose).unsqueeze(0)  # (1, 4, 4)


class FrozenRenderer(nn.Module):
    """Maps a camera pose to a tiny 'image'; its weights stay fixed."""

    def __init__(self, hw=8):
        super().__init__()
        self.hw = hw
        self.net = nn.Sequential(nn.Linear(12, 32), nn.Tanh(), nn.Linear(32, hw * hw * 3))
        for p in self.net.parameters():
            p.requires_grad_(False)

    def forward(self, pose):
        return self.net(pose[:, :3, :].reshape(1, 12)).view(self.hw, self.hw, 3)
