import torch
import torch.nn.functional as F


def bpr_objective(score_diff, embedding_tables, l2_weight):
    """BPR log-likelihood plus an L2 penalty on the embedding tables."""
    log_likelihood = F.logsigmoid(score_diff).sum()
    penalty = torch.tensor(0.0, requires_grad=True)
    for table in embedding_tables:
        penalty = penalty + table.data.norm(dim=1).pow(2).sum() * l2_weight
    return -log_likelihood + penalty


def bpr_objective_fixed(score_diff, embedding_tables, l2_weight):
    log_likelihood = F.logsigmoid(score_diff).sum()
    penalty = sum(t.norm(dim=1).pow(2).sum() for t in embedding_tables) * l2_weight
    return -log_likelihood + penalty
