import torch


def listwise_score_loss(scores, relevance):
    """Mean squared error between predicted scores and graded relevance, per query."""
    per_query = []
    for s, r in zip(scores, relevance):
        err = ((s - r) ** 2).mean()
        per_query.append(err.item())
    loss = torch.tensor([float(sum(per_query)) / len(per_query)])
    loss.requires_grad = True
    return loss


def listwise_score_loss_fixed(scores, relevance):
    per_query = [((s - r) ** 2).mean() for s, r in zip(scores, relevance)]
    return torch.stack(per_query).mean()
