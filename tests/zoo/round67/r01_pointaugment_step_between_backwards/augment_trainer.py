"""Augmentor / classifier pair and the joint training step (PointAugment style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PointAugmentor(nn.Module):
    """Predicts a per-point displacement from the cloud and a noise vector."""

    def __init__(self, noise_dim=8, hidden=32):
        super().__init__()
        self.point_mlp = nn.Sequential(nn.Conv1d(3 + noise_dim, hidden, 1), nn.ReLU(),
                                       nn.Conv1d(hidden, 3, 1))

    def forward(self, pts, noise):
        # pts: (B, 3, N), noise: (B, noise_dim)
        n = noise.unsqueeze(-1).expand(-1, -1, pts.size(2))
        shift = self.point_mlp(torch.cat([pts, n], dim=1))
        return pts + 0.1 * torch.tanh(shift)


class TinyPointNet(nn.Module):
    def __init__(self, num_class=2, hidden=32):
        super().__init__()
        self.feat = nn.Sequential(nn.Conv1d(3, hidden, 1), nn.ReLU(), nn.Conv1d(hidden, 64, 1), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, num_class))

    def forward(self, pts):
        g = self.feat(pts).max(dim=2).values
        return self.head(g), g


def augmentor_loss(pred_pc, pred_aug, target):
    # the augmentor wants samples that are harder than the originals, but not absurd
    l_pc = F.cross_entropy(pred_pc, target)
    l_aug = F.cross_entropy(pred_aug, target)
    return torch.abs(1.0 - torch.exp(l_aug - 2.0 * l_pc)) + l_aug


def classifier_loss(pred_pc, pred_aug, target, feat_pc, feat_aug):
    return F.cross_entropy(pred_pc, target) + F.cross_entropy(pred_aug, target) \
        + 0.1 * F.mse_loss(feat_aug, feat_pc)


class JointTrainer:
    def __init__(self, classifier, augmentor, lr=1e-2):
        self.classifier = classifier
        self.augmentor = augmentor
        self.optimizer_c = torch.optim.Adam(classifier.parameters(), lr=lr)
        self.optimizer_a = torch.optim.Adam(augmentor.parameters(), lr=lr)

    def step(self, points, target, noise):
        self.optimizer_a.zero_grad()
        aug_pc = self.augmentor(points, noise)
        pred_pc, feat_pc = self.classifier(points)
        pred_aug, feat_aug = self.classifier(aug_pc)

        aug_loss = augmentor_loss(pred_pc, pred_aug, target)
        aug_loss.backward(retain_graph=True)
        self.optimizer_a.step()

        self.optimizer_c.zero_grad()
        cls_loss = classifier_loss(pred_pc, pred_aug, target, feat_pc, feat_aug)
        cls_loss.backward(retain_graph=True)
        self.optimizer_c.step()
        return aug_loss.item(), cls_loss.item()

    def step_fixed(self, points, target, noise):
        self.optimizer_a.zero_grad()
        aug_pc = self.augmentor(points, noise)
        pred_pc, feat_pc = self.classifier(points)
        pred_aug, _ = self.classifier(aug_pc)
        aug_loss = augmentor_loss(pred_pc, pred_aug, target)
        aug_loss.backward(retain_graph=True)
        self.optimizer_a.step()

        # the classifier sees the augmented cloud as data: its graph does not reach
        # the augmentor weights that optimizer_a just changed
        self.optimizer_c.zero_grad()
        pred_aug_c, feat_aug_c = self.classifier(aug_pc.detach())
        cls_loss = classifier_loss(pred_pc, pred_aug_c, target, feat_pc, feat_aug_c)
        cls_loss.backward()
        self.optimizer_c.step()
        return aug_loss.item(), cls_loss.item()
