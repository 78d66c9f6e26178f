import torch.nn.functional as F


class SegmentationCriterion:
    def __init__(self, smooth=1.0):
        self.smooth = smooth

    def compute(self, model, batch):
        img, mask = batch
        prob = model(img).sigmoid()
        inter = (prob * mask).sum()
        dice = 1 - (2 * inter + self.smooth) / (prob.sum() + mask.sum() + self.smooth)
        return dice + F.binary_cross_entropy(prob, mask)
