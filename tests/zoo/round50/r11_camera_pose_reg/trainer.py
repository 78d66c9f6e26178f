"""Pose optimiser: fits camera poses to target frames through a frozen renderer."""
import torch


class PoseOptimizer:
    def __init__(self, renderer, camera_transforms, scene, lr=1e-2):
        self.renderer = renderer
        self.cams = camera_transforms
        self.scene = scene  # dict with "pose_center" and "pose_norm"
        self.optimizer = torch.optim.Adam(self.cams.parameters(), lr=lr)

    def regularize(self, pose, range_=0.6, weight=8.0):
        # keep the camera centre inside a ball around the scene centre
        dist = torch.norm(self.scene["pose_center"] - pose[:, :3, 3])
        excess = torch.clamp(dist - range_ * self.scene["pose_norm"], min=0.0)
        return (excess * weight) ** 2

    def losses(self, init_poses, targets):
        preds, reg_losses = [], []
        for i, init_pose in enumerate(init_poses):
            pose = self.cams(i, init_pose)
            preds.append(self.renderer(pose))
            reg_losses.append(self.regularize(pose))
        reg_loss = torch.tensor(reg_losses).mean()
        pixel_loss = torch.mean((torch.stack(preds) - torch.stack(targets)) ** 2)
        return pixel_loss, reg_loss

    def step(self, init_poses, targets):
        self.optimizer.zero_grad()
        pixel_loss, reg_loss = self.losses(init_poses, targets)
        total = pixel_loss + reg_loss
        total.backward()
        self.optimizer.step()
        return pixel_loss.item(), reg_loss.item()
