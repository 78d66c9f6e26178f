"""Non-negative PU-learning risk for a token tagger (positive vs unlabeled)."""
import torch


def nn_pu_risk(scores, labels, prior):
    pos = scores[labels == 1]
    unl = scores[labels == 0]
    p_risk = torch.sigmoid(-pos).mean()
    n_risk = torch.sigmoid(unl).mean() - prior * torch.sigmoid(pos).mean()
    risk = prior * p_risk + torch.clamp(n_risk, min=0.0)
    acc = ((scores > 0).long() == labels).float().mean()
    return acc.item(), risk.item(), p_risk.item(), n_risk.item()


def nn_pu_risk_tensor(scores, labels, prior):
    pos = scores[labels == 1]
    unl = scores[labels == 0]
    p_risk = torch.sigmoid(-pos).mean()
    n_risk = torch.sigmoid(unl).mean() - prior * torch.sigmoid(pos).mean()
    return prior * p_risk + torch.clamp(n_risk, min=0.0)
