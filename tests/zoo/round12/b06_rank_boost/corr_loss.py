"""Rank-correlation style objective used to fit a scorer."""
import torch


def soft_rank(v, tau=0.1):
    diff = v.unsqueeze(-1) - v.unsqueeze(-2)
    return torch.sigmoid(diff / tau).sum(-1)


def spearman_objective(ypred, ytrue):
    n = ypred.numel()
    ypred_t = torch.tensor(ypred.reshape(1, n).tolist(), requires_grad=True)
    ytrue_t = ytrue.reshape(1, n)
    rp, rt = soft_rank(ypred_t), soft_rank(ytrue_t)
    rp = rp - rp.mean()
    rt = rt - rt.mean()
    corr = (rp * rt).sum() / (rp.norm() * rt.norm() + 1e-8)
    return 1.0 - corr
