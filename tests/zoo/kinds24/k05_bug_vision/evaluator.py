"""Robust-accuracy evaluation loop for kinds check 24, kind 5 (see main.py)."""
import torch


class RobustnessEvaluator:
    def __init__(self, model, eps):
        self.model = model
        self.eps = eps

    @torch.no_grad()
    def evaluate(self, batches):
        self.model.eval()
        correct = total = 0
        for images, labels in batches:
            adv = self.model.fgsm(images, labels, self.eps)
            correct += (self.model(adv).argmax(1) == labels).sum().item()
            total += labels.numel()
        return correct / total
