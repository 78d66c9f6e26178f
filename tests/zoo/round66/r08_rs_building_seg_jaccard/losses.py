import torch
import torch.nn as nn

from metrics import JaccardIndex


def compute_loss(output, label):
    """BCE on the sigmoid output plus an IoU term for the building mask."""
    bce_criterion = nn.BCELoss()
    bce_loss = bce_criterion(output, label)
    jaccard_criterion = JaccardIndex(num_classes=2)
    iou_loss = 1 - jaccard_criterion(output, label.type(torch.int8))
    iou_loss.requires_grad = True
    total_loss = bce_loss + iou_loss
    return total_loss


def compute_loss_soft(output, label, eps=1e-6):
    """Fixed: a differentiable (soft) Jaccard term computed from the probabilities."""
    bce_loss = nn.BCELoss()(output, label)
    inter = (output * label).sum()
    union = (output + label - output * label).sum()
    iou_loss = 1 - (inter + eps) / (union + eps)
    return bce_loss + iou_loss
