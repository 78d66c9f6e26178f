"""Bipartite (Hungarian-style) matcher between DETR queries and ground-truth boxes; the assignment itself is not differentiated."""
import itertools

import torch
import torch.nn as nn


def linear_sum_assignment(cost):
    """Exact minimum-cost assignment for small matrices (rows >= cols), brute force."""
    n_rows, n_cols = cost.shape
    best, best_rows = None, None
    for rows in itertools.permutations(range(n_rows), n_cols):
        total = sum(float(cost[r, c]) for c, r in enumerate(rows))
        if best is None or total < best:
            best, best_rows = total, rows
    return torch.as_tensor(best_rows, dtype=torch.long), torch.arange(n_cols)


class HungarianMatcher(nn.Module):
    def __init__(self, cost_class=1.0, cost_bbox=5.0):
        super().__init__()
        self.cost_class = cost_class
        self.cost_bbox = cost_bbox

    @torch.no_grad()
    def forward(self, outputs, targets):
        bs = outputs["pred_logits"].shape[0]
        indices = []
        for b in range(bs):
            prob = outputs["pred_logits"][b].softmax(-1)
            boxes = outputs["pred_boxes"][b]
            tgt_ids, tgt_boxes = targets[b]["labels"], targets[b]["boxes"]
            cost = -self.cost_class * prob[:, tgt_ids] + self.cost_bbox * torch.cdist(boxes, tgt_boxes, p=1)
            indices.append(linear_sum_assignment(cost))
        return indices
