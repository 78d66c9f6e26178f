"""RoI feature extractor that adds a per-image global-context vector to every RoI of that image."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def roi_pool(feat, rois, out_size=4):
    """Max-pool each RoI (img_idx, x1, y1, x2, y2 in feature-map cells) to out_size x out_size."""
    pooled = []
    for b, x1, y1, x2, y2 in rois.long().tolist():
        pooled.append(F.adaptive_max_pool2d(feat[b:b + 1, :, y1:y2, x1:x2], out_size))
    return torch.cat(pooled, dim=0)


class ContextRoIExtractor(nn.Module):
    def __init__(self, channels, out_size=4, mode="iadd"):
        super().__init__()
        self.out_size = out_size
        self.adapt = nn.Conv2d(channels, channels, kernel_size=1)
        self.context_fc = nn.Linear(channels, channels)
        self.mode = mode

    def forward(self, feat, rois):
        roi_feats = F.relu(self.adapt(roi_pool(feat, rois, self.out_size)))
        context = self.context_fc(feat.mean(dim=(2, 3)))[:, :, None, None]  # (B, C, 1, 1)
        img_ids = rois[:, 0].long()
        if self.mode == "iadd":
            for j in range(feat.shape[0]):
                roi_feats[img_ids == j] += context[j]
        elif self.mode == "assign":
            # the "fix" tried next: still writes into roi_feats in place
            for j in range(feat.shape[0]):
                roi_feats[img_ids == j] = roi_feats[img_ids == j] + context[j]
        else:
            roi_feats = roi_feats + context[img_ids]
        return roi_feats
