"""Feature extractor, condition classifier and adversarial domain classifier for vibration signals."""
import torch
import torch.nn as nn


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, coeff):
        ctx.coeff = coeff
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return -ctx.coeff * grad_output, None


class FeatureExtractor(nn.Module):
    def __init__(self, length=128, feat_dim=32):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(1, 8, kernel_size=9, padding=4), nn.BatchNorm1d(8), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(8, 16, kernel_size=5, padding=2), nn.BatchNorm1d(16), nn.ReLU(), nn.MaxPool1d(2),
        )
        self.fc = nn.Sequential(nn.Linear(16 * (length // 4), feat_dim), nn.ReLU())

    def forward(self, x):
        return self.fc(self.conv(x).flatten(1))


class ConditionClassifier(nn.Module):
    def __init__(self, feat_dim=32, n_classes=4):
        super().__init__()
        self.fc = nn.Linear(feat_dim, n_classes)

    def forward(self, f):
        return self.fc(f)


class DomainClassifier(nn.Module):
    def __init__(self, feat_dim=32, hidden=16, coeff=1.0):
        super().__init__()
        self.coeff = coeff
        self.fc = nn.Sequential(nn.Linear(feat_dim, hidden), nn.Linear(hidden, 1))

    def forward(self, f):
        return self.fc(GradReverse.apply(f, self.coeff))
