"""Tiny multi-view 3-D human pose network in the shape of VoxelPose:
a cuboid proposal (root) net and a pose regression net over the same input volumes."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class V2VBlock(nn.Module):
    def __init__(self, in_ch, out_ch):
        super().__init__()
        self.conv = nn.Conv3d(in_ch, out_ch, 3, padding=1)
        self.bn = nn.BatchNorm3d(out_ch)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


class MultiPersonPoseNet(nn.Module):
    def __init__(self, num_joints=5, cube=8):
        super().__init__()
        self.num_joints = num_joints
        # cuboid proposal net (root) and pose regression net are separate V2V nets
        self.root_net = V2VBlock(num_joints, 32)
        self.root_head = nn.Conv3d(32, 1, 1)
        self.pose_net = V2VBlock(num_joints, 32)
        self.pose_head = nn.Conv3d(32, num_joints, 1)
        grid = torch.linspace(-1.0, 1.0, cube)
        gz, gy, gx = torch.meshgrid(grid, grid, grid, indexing="ij")
        self.register_buffer("coords", torch.stack([gx, gy, gz], -1).view(-1, 3))

    def soft_argmax(self, volume):
        b, j = volume.shape[:2]
        prob = F.softmax(volume.view(b, j, -1), dim=-1)
        return prob @ self.coords  # [b, j, 3]

    def forward(self, input_heatmaps, targets_3d, root_target, joints_3d):
        root = self.root_head(self.root_net(input_heatmaps))
        pose = self.pose_head(self.pose_net(input_heatmaps))
        loss_2d = torch.zeros((), device=input_heatmaps.device)          # 2-D backbone frozen
        loss_3d = F.mse_loss(torch.sigmoid(root), root_target)  # proposal net loss
        pred = self.soft_argmax(pose)
        loss_cord = F.l1_loss(pred, joints_3d)                   # pose regression loss
        return pred, loss_2d, loss_3d, loss_cord
