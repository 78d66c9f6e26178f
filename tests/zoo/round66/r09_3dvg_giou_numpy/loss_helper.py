"""Matched-box losses for a DETR-style 3D visual grounding head (ScanRefer data layout)."""
import numpy as np
import torch
import torch.nn.functional as F


def box_corners_np(center, size):
    """Axis-aligned boxes -> (min_xyz, max_xyz) in NumPy."""
    return np.concatenate([center - size / 2, center + size / 2], axis=1)


def generalized_box_iou_np(boxes1, boxes2):
    lo = np.maximum(boxes1[:, None, :3], boxes2[None, :, :3])
    hi = np.minimum(boxes1[:, None, 3:], boxes2[None, :, 3:])
    inter = np.clip(hi - lo, 0, None).prod(-1)
    vol1 = (boxes1[:, 3:] - boxes1[:, :3]).prod(-1)
    vol2 = (boxes2[:, 3:] - boxes2[:, :3]).prod(-1)
    union = vol1[:, None] + vol2[None, :] - inter
    enc = (np.maximum(boxes1[:, None, 3:], boxes2[None, :, 3:])
           - np.minimum(boxes1[:, None, :3], boxes2[None, :, :3])).prod(-1)
    return inter / union - (enc - union) / enc


def get_corner(data_dict, idx):
    pred_center = data_dict["center"][idx].detach().cpu().numpy()
    pred_size = data_dict["size"][idx].detach().cpu().numpy()
    gt_center = data_dict["center_label"].cpu().numpy()
    gt_size = data_dict["size_label"].cpu().numpy()
    return box_corners_np(pred_center, pred_size), box_corners_np(gt_center, gt_size)


def compute_match_box_loss(data_dict, idx):
    pred_boxes, gt_boxes = get_corner(data_dict, idx)
    cost_giou = generalized_box_iou_np(pred_boxes, gt_boxes)
    cost_giou = torch.Tensor(cost_giou)
    giou_loss = torch.mean(1 - torch.diag(cost_giou))

    center_loss = F.mse_loss(data_dict["center"][idx], data_dict["center_label"])
    box_loss = center_loss

    giou_loss.requires_grad = True
    return box_loss, giou_loss


def compute_match_box_loss_torch(data_dict, idx):
    """Fixed: GIoU on the predicted tensors themselves."""
    c, s = data_dict["center"][idx], data_dict["size"][idx]
    gc, gs = data_dict["center_label"], data_dict["size_label"]
    lo = torch.maximum(c - s / 2, gc - gs / 2)
    hi = torch.minimum(c + s / 2, gc + gs / 2)
    inter = (hi - lo).clamp(min=0).prod(-1)
    union = s.prod(-1) + gs.prod(-1) - inter
    enc = (torch.maximum(c + s / 2, gc + gs / 2) - torch.minimum(c - s / 2, gc - gs / 2)).prod(-1)
    giou = inter / union - (enc - union) / enc
    box_loss = F.mse_loss(c, gc)
    return box_loss, torch.mean(1 - giou)


def get_loss(data_dict, idx, differentiable_giou=False):
    fn = compute_match_box_loss_torch if differentiable_giou else compute_match_box_loss
    box_loss, giou_loss = fn(data_dict, idx)
    loss = 5 * box_loss + 2 * giou_loss
    data_dict["box_loss"], data_dict["giou_loss"] = box_loss, giou_loss
    return loss, data_dict
