import torch
import torch.nn.functional as F
from torch.autograd import Variable


def lovasz_grad(gt_sorted):
    """Gradient of the Lovasz extension w.r.t. sorted errors (depends on labels only)."""
    p = len(gt_sorted)
    gts = gt_sorted.sum()
    intersection = gts - gt_sorted.float().cumsum(0)
    union = gts + (1 - gt_sorted).float().cumsum(0)
    jaccard = 1.0 - intersection / union
    if p > 1:
        jaccard[1:p] = jaccard[1:p] - jaccard[0:-1]
    return jaccard


def lovasz_hinge_flat(logits, labels):
    if len(labels) == 0:
        return logits.sum() * 0.0
    signs = 2.0 * labels.float() - 1.0
    errors = 1.0 - logits * Variable(signs)
    errors_sorted, perm = torch.sort(errors, dim=0, descending=True)
    gt_sorted = labels[perm.data]
    grad = lovasz_grad(gt_sorted)
    return torch.dot(F.relu(errors_sorted), Variable(grad))


def lovasz_hinge(logits, labels, per_image=True):
    if per_image:
        losses = [lovasz_hinge_flat(lg.reshape(-1), lb.reshape(-1)) for lg, lb in zip(logits, labels)]
        return torch.stack(losses).mean()
    return lovasz_hinge_flat(logits.reshape(-1), labels.reshape(-1))
