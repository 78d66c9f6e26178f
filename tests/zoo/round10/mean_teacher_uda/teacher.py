"""Exponential-moving-average teacher used for self-training on the target domain."""
import copy

import torch


class EMATeacher:
    def __init__(self, student, alpha=0.99):
        self.alpha = alpha
        self.model = copy.deepcopy(student)
        for p in self.model.parameters():
            p.requires_grad_(False)

    def update(self, student):
        with torch.no_grad():
            for t, s in zip(self.model.parameters(), student.parameters()):
                t.mul_(self.alpha).add_(s.detach(), alpha=1 - self.alpha)

    def pseudo_labels(self, images, threshold=0.6):
        with torch.no_grad():
            probs = self.model(images).softmax(dim=1)
        confidence, labels = probs.max(dim=1)
        weight = (confidence > threshold).float().mean()
        return labels, weight.detach()
