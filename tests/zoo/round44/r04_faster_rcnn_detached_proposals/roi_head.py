"""Second-stage head: crops each proposal from the feature map and classifies / refines it."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from boxes import encode, iou


class DetectionHead(nn.Module):
    def __init__(self, channels, n_classes, stride):
        super().__init__()
        self.stride = stride
        self.fcs = nn.Sequential(nn.Linear(channels * 4, 64), nn.ReLU())
        self.cls = nn.Linear(64, n_classes)
        self.reg = nn.Linear(64, 4)

    def forward(self, features, proposals):
        _, _, fh, fw = features.shape
        pooled = []
        for box in proposals:
            # integer crop window in feature-map cells
            x1 = max(min(int(box[0].item() // self.stride), fw - 1), 0)
            y1 = max(min(int(box[1].item() // self.stride), fh - 1), 0)
            x2 = max(min(int(box[2].item() // self.stride) + 1, fw), x1 + 1)
            y2 = max(min(int(box[3].item() // self.stride) + 1, fh), y1 + 1)
            pooled.append(F.adaptive_max_pool2d(features[..., y1:y2, x1:x2], 2))
        h = self.fcs(torch.cat(pooled, dim=0).flatten(1))
        return self.cls(h), self.reg(h)

    def loss(self, logits, box_deltas, proposals, gt_boxes, gt_labels):
        best, idx = iou(proposals, gt_boxes).max(dim=1)
        labels = torch.where(best >= 0.3, gt_labels[idx], torch.zeros_like(idx))
        cls_loss = F.cross_entropy(logits, labels)
        fg = labels > 0
        if fg.any():
            reg_loss = F.smooth_l1_loss(box_deltas[fg], encode(proposals[fg], gt_boxes[idx[fg]]))
        else:
            reg_loss = box_deltas.sum() * 0.0
        return cls_loss, reg_loss
