import torch


def box_corners(boxes):
    """(N, 5) cx, cy, w, h, angle -> (N, 4, 2) corners."""
    cx, cy, w, h, a = boxes.unbind(-1)
    c, s = torch.cos(a), torch.sin(a)
    dx = torch.stack([w, -w, -w, w], -1) / 2
    dy = torch.stack([h, h, -h, -h], -1) / 2
    x = cx.unsqueeze(-1) + dx * c.unsqueeze(-1) - dy * s.unsqueeze(-1)
    y = cy.unsqueeze(-1) + dx * s.unsqueeze(-1) + dy * c.unsqueeze(-1)
    return torch.stack([x, y], -1)


def min_enclosing_extent(pred, target):
    """Width/height of the axis-aligned box enclosing both rotated boxes, as a
    (N, 2) tensor (used for the enclosing-area penalty of a GIoU-style loss)."""
    pts = torch.cat([box_corners(pred), box_corners(target)], dim=1)
    rows = []
    for p in pts:
        w = p[:, 0].max() - p[:, 0].min()
        h = p[:, 1].max() - p[:, 1].min()
        rows.append([w, h])
    return torch.FloatTensor(rows).requires_grad_()


def enclosing_penalty(pred, target):
    ext = min_enclosing_extent(pred, target)
    area_enc = ext[:, 0] * ext[:, 1]
    area_pred = pred[:, 2] * pred[:, 3]
    return ((area_enc - area_pred) / area_enc).mean()


def center_l1(pred, target):
    return (pred[:, :2] - target[:, :2]).abs().mean()
