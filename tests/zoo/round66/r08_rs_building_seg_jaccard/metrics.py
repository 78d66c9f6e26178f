"""Binary Jaccard index as used for building-footprint evaluation (torchmetrics-like API)."""
import torch


class JaccardIndex:
    def __init__(self, num_classes=2, threshold=0.5):
        assert num_classes == 2
        self.threshold = threshold

    def __call__(self, preds, target):
        hard = preds > self.threshold
        target = target.bool()
        inter = (hard & target).sum().float()
        union = (hard | target).sum().float()
        return torch.where(union > 0, inter / union, torch.ones(()))
