"""Grasp-success scorer for a parallel-jaw gripper.

Takes a flattened depth patch around the candidate grasp and the 6-D gripper pose,
and predicts the probability that closing the gripper there lifts the object.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GraspScorer(nn.Module):
    def __init__(self, patch_pixels=64, pose_dim=6, hidden=32):
        super().__init__()
        self.depth_encoder = nn.Sequential(
            nn.Linear(patch_pixels, hidden),
            nn.ReLU(),
            nn.Linear(hidden, hidden),
        )
        self.pose_encoder = nn.Linear(pose_dim, hidden)
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(2 * hidden, 1))

    @torch.no_grad()
    def encode_depth(self, depth_patch):
        # normalise each patch to zero mean / unit std before encoding
        centred = depth_patch - depth_patch.mean(dim=1, keepdim=True)
        scaled = centred / (depth_patch.std(dim=1, keepdim=True) + 1e-6)
        return self.depth_encoder(scaled)

    def encode_pose(self, pose):
        return self.pose_encoder(pose)

    def forward(self, depth_patch, pose):
        feats = torch.cat([self.encode_depth(depth_patch), self.encode_pose(pose)], dim=1)
        return self.head(feats).squeeze(1)

    def compute_loss(self, batch):
        logits = self(batch["depth"], batch["pose"])
        return F.binary_cross_entropy_with_logits(logits, batch["success"])
