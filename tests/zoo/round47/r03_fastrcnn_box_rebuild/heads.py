"""Fast R-CNN sibling heads on pooled RoI features: a classifier and a box-delta regressor with separate weights."""
from collections import OrderedDict

import torch.nn as nn


class SiblingHeads(nn.Module):
    def __init__(self, in_dim=32 * 7 * 7, hidden=64, num_classes=21):
        super().__init__()
        self.cls_branch = nn.Sequential(OrderedDict([
            ("fc1", nn.Linear(in_dim, hidden)), ("relu1", nn.ReLU(inplace=True)),
            ("out", nn.Linear(hidden, num_classes)),
        ]))
        self.reg_branch = nn.Sequential(OrderedDict([
            ("fc1", nn.Linear(in_dim, hidden)), ("relu1", nn.ReLU(inplace=True)),
            ("out", nn.Linear(hidden, 4)),
        ]))

    def forward(self, roi_feats):
        flat = roi_feats.view(-1, self.cls_branch.fc1.in_features)
        return self.cls_branch(flat), self.reg_branch(flat)


def fast_rcnn_loss(cls_logits, cls_label, t_u, v, lamda=10.0, background=20):
    cls_loss = nn.functional.cross_entropy(cls_logits, cls_label)
    loc_loss = nn.functional.smooth_l1_loss(t_u, v)
    is_fg = 0.0 if int(cls_label) == background else 1.0
    return cls_loss + lamda * is_fg * loc_loss
