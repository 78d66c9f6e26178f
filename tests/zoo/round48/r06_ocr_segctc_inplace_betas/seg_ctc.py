"""Pure-PyTorch segmental CTC-style cost for text-line recognition, filled in a preallocated table."""
import torch

NEG = -1e8


def emissions(pred, targets):
    """pred: (T, B, C) log-probs; targets: (B, U) label ids -> (T, B, U) log-prob of each target label."""
    T = pred.size(0)
    idx = targets.unsqueeze(0).expand(T, -1, -1)
    return pred.gather(2, idx)


def seg_ctc_cost(pred, targets):
    T, B, _ = pred.shape
    U = targets.size(1)
    emit = emissions(pred, targets)
    blank = pred[:, :, 0]
    # betas[s, b, u]: log-prob of emitting label u from frame s up to the current frame
    betas = torch.cat((emit[0:1], torch.full((T - 1, B, U), NEG)), dim=0)
    for t in range(1, T):
        betas[: t + 1] = torch.cat(
            (torch.logaddexp(betas[:t], betas[:t] + blank[t, :, None]) + emit[t], emit[t : t + 1]), dim=0
        )
    # best segment start per label, chained left to right
    score = torch.logsumexp(betas[:, :, 0], dim=0)
    for u in range(1, U):
        score = score + torch.logsumexp(betas[:, :, u], dim=0) / (u + 1)
    return -score.mean()
