"""Optimisation-based body fitting (SMPLify-style) used to refine the regressor's guesses."""
import torch


class BodyModel:
    """A fixed, linear stand-in for SMPL: pose parameters -> 2D keypoints."""

    def __init__(self, n_params=12, n_kp=10, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.basis = torch.randn(n_params, n_kp * 2, generator=g) * 0.3
        self.mean = torch.randn(n_kp * 2, generator=g)
        self.n_kp = n_kp

    def keypoints(self, pose):
        return (torch.tanh(pose) @ self.basis + self.mean).view(-1, self.n_kp, 2)


class SMPLify:
    def __init__(self, body, steps=60, lr=0.05):
        self.body, self.steps, self.lr = body, steps, lr

    def fitting_loss(self, pose, kp2d):
        return (self.body.keypoints(pose) - kp2d).pow(2).sum(dim=(1, 2))

    def __call__(self, init_pose, kp2d):
        """Start from init_pose and minimise the keypoint error; returns the fitted
        pose and the per-sample fitting loss, both as plain (grad-free) tensors."""
        pose = init_pose.clone().requires_grad_(True)
        opt = torch.optim.Adam([pose], lr=self.lr)
        with torch.enable_grad():
            for _ in range(self.steps):
                opt.zero_grad()
                self.fitting_loss(pose, kp2d).sum().backward()
                opt.step()
        with torch.no_grad():
            final = self.fitting_loss(pose, kp2d)
        return pose.detach(), final
