"""A single-anchor YOLO detection layer with its training loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def build_targets(pred_boxes, target_boxes, grid):
    """Assign each target to its grid cell; return masks and regression targets."""
    B = pred_boxes.size(0)
    obj_mask = torch.zeros(B, grid, dtype=torch.bool)
    tx = torch.zeros(B, grid)
    tw = torch.zeros(B, grid)
    for b in range(B):
        cx, w = target_boxes[b]
        cell = min(int(cx), grid - 1)
        obj_mask[b, cell] = True
        tx[b, cell] = cx - cell
        tw[b, cell] = torch.log(w + 1e-9)
    iou = 1.0 - (pred_boxes[..., 0] - (tx + torch.arange(grid))).abs().clamp(max=1.0)
    tconf = obj_mask.float()
    return obj_mask, tx, tw, tconf, iou


class YoloLayer1D(nn.Module):
    def __init__(self, anchor_w=2.0, stride=8):
        super().__init__()
        self.anchor_w = anchor_w
        self.stride = stride

    def forward(self, x, targets=None):
        B, C, G = x.shape
        pred = x.permute(0, 2, 1)
        px = torch.sigmoid(pred[..., 0])
        pw = pred[..., 1]
        conf = torch.sigmoid(pred[..., 2])

        grid_x = torch.arange(G, dtype=x.dtype)
        pred_boxes = torch.zeros(B, G, 2)
        pred_boxes[..., 0] = px.data + grid_x
        pred_boxes[..., 1] = torch.exp(pw.data) * self.anchor_w

        output = torch.cat([pred_boxes * self.stride, conf.unsqueeze(-1)], dim=-1)
        if targets is None:
            return output, None

        obj_mask, tx, tw, tconf, iou = build_targets(pred_boxes, targets, G)
        loss = (F.mse_loss(px[obj_mask], tx[obj_mask])
                + F.mse_loss(pw[obj_mask], tw[obj_mask] - torch.log(torch.tensor(self.anchor_w)))
                + F.binary_cross_entropy(conf, tconf))
        return output, loss
