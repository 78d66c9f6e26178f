"""Region proposal network over a fixed anchor grid; its proposals are handed on as constants."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from boxes import decode, encode, iou


class RegionProposalNetwork(nn.Module):
    def __init__(self, channels, anchors, pre_nms_top_n=12):
        super().__init__()
        self.register_buffer("anchors", anchors)
        self.conv = nn.Conv2d(channels, channels, 3, padding=1)
        self.objectness = nn.Conv2d(channels, 1, 1)
        self.deltas = nn.Conv2d(channels, 4, 1)
        self.top_n = pre_nms_top_n

    def forward(self, features):
        h = F.relu(self.conv(features))
        scores = self.objectness(h).flatten()
        deltas = self.deltas(h).permute(0, 2, 3, 1).reshape(-1, 4)
        boxes = decode(self.anchors, deltas)
        keep = scores.topk(self.top_n).indices
        # the second stage treats proposals as fixed boxes (approximate joint training)
        proposals = boxes[keep].detach()
        return scores, deltas, proposals

    def loss(self, scores, deltas, gt_boxes):
        overlaps = iou(self.anchors, gt_boxes)
        best, idx = overlaps.max(dim=1)
        labels = (best >= 0.4).float()
        obj_loss = F.binary_cross_entropy_with_logits(scores, labels)
        pos = labels.bool()
        targets = encode(self.anchors[pos], gt_boxes[idx[pos]])
        box_loss = F.smooth_l1_loss(deltas[pos], targets)
        return obj_loss, box_loss
