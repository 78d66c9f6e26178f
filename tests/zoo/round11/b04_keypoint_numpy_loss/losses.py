"""Custom keypoint loss registered for the pose head."""
import numpy as np
import torch
import torch.nn as nn


class KeypointDistanceLoss(nn.Module):
    """Mean Euclidean distance (pixels) between predicted and annotated visible keypoints."""

    def __init__(self, loss_weight=1.0):
        super().__init__()
        self.loss_weight = loss_weight

    def forward(self, pred_coords, gt_coords, visible):
        pred = pred_coords.detach().cpu().numpy()
        gt = gt_coords.cpu().numpy()
        vis = visible.cpu().numpy().astype(bool)
        dist = np.linalg.norm(pred - gt, axis=-1)
        value = float(dist[vis].mean()) * self.loss_weight
        return torch.tensor(value, dtype=torch.float32, requires_grad=True)
