"""Multimodal human-motion regressor: a VIBE-like temporal encoder plus a fusion branch."""
import torch
import torch.nn as nn


class TemporalEncoder(nn.Module):
    """VIBE-like: GRU over per-frame image features, regresses SMPL-style pose params per frame."""

    def __init__(self, d_in=32, hidden=32, n_theta=12):
        super().__init__()
        self.gru = nn.GRU(d_in, hidden, batch_first=True)
        self.theta_head = nn.Linear(hidden, n_theta)

    def forward(self, feats):
        h, _ = self.gru(feats)
        return h, {"theta": self.theta_head(h)}


class FusionRegressor(nn.Module):
    def __init__(self, d_in=32, hidden=32, d_model=24, n_joints=8):
        super().__init__()
        self.vibe = TemporalEncoder(d_in, hidden)
        self.fc = nn.Linear(hidden, d_model)  # projection into the fusion branch
        self.attn = nn.MultiheadAttention(d_model, num_heads=2, batch_first=True)
        self.norm = nn.LayerNorm(d_model)
        self.joint_head = nn.Linear(d_model, n_joints * 3)
        self.n_joints = n_joints

    def fuse(self, img_proj):
        x = img_proj
        for _ in range(2):
            a, _ = self.attn(x, x, x)
            x = self.norm(x + a)
        return x + img_proj

    def forward(self, img_feats):
        B, T, _ = img_feats.shape
        img_feature, smpl_output = self.vibe(img_feats)
        img_feature_detached = self.fc(img_feature).view(B, T, -1).detach()
        feature = self.fuse(img_feature_detached)
        joints = self.joint_head(feature).view(B, T, self.n_joints, 3)
        return {"joint": joints, "img_theta": smpl_output["theta"]}
