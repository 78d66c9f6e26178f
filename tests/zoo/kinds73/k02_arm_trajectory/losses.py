"""Loss family for a 6-DoF arm trajectory regressor."""
import torch


class TrajectoryLoss:
    """Base class: subclasses return one error per joint, the base weights and reduces them."""

    def __init__(self, joint_weights):
        self.joint_weights = torch.as_tensor(joint_weights, dtype=torch.float32)

    def per_joint(self, pred, target):
        raise NotImplementedError

    def __call__(self, pred, target):
        errs = self.per_joint(pred, target)
        return (errs * self.joint_weights).sum() / self.joint_weights.sum()


class JointMSELoss(TrajectoryLoss):
    def per_joint(self, pred, target):
        return ((pred - target) ** 2).mean(dim=(0, 1))


class WrappedAngleLoss(TrajectoryLoss):
    """Angle error that respects wrap-around at +-pi, one value per joint."""

    def per_joint(self, pred, target):
        n_joints = pred.shape[-1]
        errs = []
        for j in range(n_joints):
            d = pred[..., j] - target[..., j]
            d = torch.atan2(torch.sin(d), torch.cos(d))
            errs.append((d ** 2).mean())
        return torch.tensor(errs)


class WrappedAngleLossFixed(WrappedAngleLoss):
    def per_joint(self, pred, target):
        d = pred - target
        d = torch.atan2(torch.sin(d), torch.cos(d))
        return (d ** 2).mean(dim=(0, 1))
