"""Entropic optimal-transport loss between two point clouds, with a NumPy cost helper as in a backend-agnostic OT library."""
import numpy as np
import torch


def to_numpy(x):
    return x.cpu().detach().numpy()


def sq_dist_np(a, b):
    return ((a[:, None, :] - b[None, :, :]) ** 2).sum(-1)


def sinkhorn_plan(M, reg, iters=200):
    n, m = M.shape
    a = torch.full((n,), 1.0 / n, dtype=M.dtype)
    b = torch.full((m,), 1.0 / m, dtype=M.dtype)
    K = torch.exp(-M / reg)
    u = torch.ones_like(a)
    for _ in range(iters):
        v = b / (K.t() @ u)
        u = a / (K @ v)
    return u[:, None] * K * v[None, :]


def empirical_sinkhorn2(xs, xt, reg=0.5):
    M = sq_dist_np(to_numpy(xs), to_numpy(xt))
    M = torch.from_numpy(M).to(xs.dtype)
    plan = sinkhorn_plan(M, reg)
    return (plan * M).sum()


def empirical_sinkhorn2_fixed(xs, xt, reg=0.5):
    M = torch.cdist(xs, xt).pow(2)
    plan = sinkhorn_plan(M, reg)
    return (plan * M).sum()
