import torch


def assign_proposal_targets(proposals, gt_boxes, fg_thresh=0.5):
    """Match proposals to ground truth and build regression/class targets.

    Pure label bookkeeping: it sorts, masks and writes into buffers in place.
    """
    with torch.no_grad():
        d = torch.cdist(proposals[:, :3], gt_boxes[:, :3])
        best, idx = d.min(dim=1)
        cls_target = torch.zeros(proposals.shape[0])
        cls_target[best < fg_thresh] = 1.0
        reg_target = gt_boxes[idx].clone()
        reg_target[:, :3] -= proposals[:, :3]
    return cls_target, reg_target
