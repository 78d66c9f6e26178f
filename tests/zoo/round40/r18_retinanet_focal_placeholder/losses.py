"""RetinaNet focal loss with anchor assignment and smooth-L1 box regression."""
import torch
import torch.nn as nn


def calc_iou(a, b):
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    iw = torch.min(a[:, 2:3], b[:, 2]) - torch.max(a[:, 0:1], b[:, 0])
    ih = torch.min(a[:, 3:4], b[:, 3]) - torch.max(a[:, 1:2], b[:, 1])
    iw, ih = iw.clamp(min=0), ih.clamp(min=0)
    ua = ((a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])).unsqueeze(1) + area - iw * ih
    return iw * ih / ua.clamp(min=1e-8)


class FocalLoss(nn.Module):
    def forward(self, classifications, regressions, anchors, annotations, alpha=0.25, gamma=2.0):
        cls_losses, reg_losses = [], []
        aw = anchors[:, 2] - anchors[:, 0]
        ah = anchors[:, 3] - anchors[:, 1]
        ax = anchors[:, 0] + 0.5 * aw
        ay = anchors[:, 1] + 0.5 * ah
        for j in range(classifications.shape[0]):
            classification = classifications[j].clamp(1e-4, 1.0 - 1e-4)
            regression = regressions[j]
            boxes = annotations[j]
            boxes = boxes[boxes[:, 4] != -1]
            if boxes.shape[0] == 0:
                focal_weight = (1.0 - alpha) * classification.pow(gamma)
                cls_losses.append((focal_weight * -torch.log(1.0 - classification)).sum())
                reg_losses.append(torch.tensor(0).float())
                continue

            iou_max, iou_argmax = calc_iou(anchors, boxes[:, :4]).max(dim=1)
            targets = torch.ones(classification.shape) * -1
            targets[iou_max < 0.4, :] = 0
            positive = iou_max >= 0.5
            num_pos = positive.sum()
            assigned = boxes[iou_argmax, :]
            targets[positive, :] = 0
            targets[positive, assigned[positive, 4].long()] = 1

            alpha_factor = torch.where(targets == 1., torch.full_like(targets, alpha), torch.full_like(targets, 1. - alpha))
            focal_weight = torch.where(targets == 1., 1. - classification, classification)
            focal_weight = alpha_factor * focal_weight.pow(gamma)
            bce = -(targets * torch.log(classification) + (1.0 - targets) * torch.log(1.0 - classification))
            cls_loss = torch.where(targets != -1.0, focal_weight * bce, torch.zeros_like(bce))
            cls_losses.append(cls_loss.sum() / num_pos.float().clamp(min=1.0))

            if num_pos > 0:
                gt = assigned[positive]
                gw, gh = gt[:, 2] - gt[:, 0], gt[:, 3] - gt[:, 1]
                gx, gy = gt[:, 0] + 0.5 * gw, gt[:, 1] + 0.5 * gh
                t = torch.stack(((gx - ax[positive]) / aw[positive], (gy - ay[positive]) / ah[positive],
                                 torch.log(gw / aw[positive]), torch.log(gh / ah[positive])), 1)
                t = t / torch.tensor([[0.1, 0.1, 0.2, 0.2]])
                diff = (t - regression[positive]).abs()
                reg_losses.append(torch.where(diff <= 1.0 / 9.0, 4.5 * diff.pow(2), diff - 0.5 / 9.0).mean())
            else:
                reg_losses.append(torch.tensor(0).float())
        return torch.stack(cls_losses).mean(), torch.stack(reg_losses).mean()
