"""Importance-weighted objectives for the VAE: plain IWAE and the doubly-reparameterised (DReG) estimator."""
import math

import torch
from torch.distributions import Normal


def iwae(model, x, K):
    qz_x, px_z, zs = model(x, K)
    lw = model.prior.log_prob(zs).sum(-1) + px_z.log_prob(x).sum(-1) - qz_x.log_prob(zs).sum(-1)
    return (torch.logsumexp(lw, dim=0) - math.log(K)).mean()


def _dreg_log_weights(model, x, K):
    _, px_z, zs = model(x, K)
    qz_x_stopped = Normal(*[p.detach() for p in model.qz_x_params])
    lpz = model.prior.log_prob(zs).sum(-1)
    lqz_x = qz_x_stopped.log_prob(zs).sum(-1)
    lpx_z = px_z.log_prob(x).sum(-1)
    return lpz + lpx_z - lqz_x, zs


def dreg(model, x, K):
    lw, zs = _dreg_log_weights(model, x, K)
    with torch.no_grad():
        grad_wt = (lw - torch.logsumexp(lw, dim=0, keepdim=True)).exp()
        if zs.requires_grad:
            zs.register_hook(lambda grad: grad_wt.unsqueeze(-1) * grad)
    return (grad_wt * lw).sum(0).mean()
