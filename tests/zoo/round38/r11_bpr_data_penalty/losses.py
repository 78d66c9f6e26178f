import torch
import torch.nn.functional as F


def l2_penalty(params, regularization, fixed=False):
    """Sum of squared row norms of the embedding tables, scaled."""
    penalty = torch.tensor(0.0, requires_grad=True)
    for param in params:
        if fixed:
            row_norms = param.norm(dim=1)
        else:
            row_norms = param.data.norm(dim=1)
        penalty = penalty + row_norms.pow(2).sum() * regularization
    return penalty


def bpr_loss(pos_minus_neg, params, regularization, fixed=False):
    logprob = F.logsigmoid(pos_minus_neg).sum()
    return -logprob + l2_penalty(params, regularization, fixed=fixed)
