"""Invariant Information Clustering objective (Ji et al. 2019)."""
import sys

import torch


def compute_joint(x_out, x_tf_out):
    # x_out, x_tf_out: (batch, k) softmax outputs for two views of the same images
    bn, k = x_out.size()
    p_i_j = x_out.unsqueeze(2) * x_tf_out.unsqueeze(1)  # bn, k, k
    p_i_j = p_i_j.sum(dim=0)
    p_i_j = (p_i_j + p_i_j.t()) / 2.0  # symmetrise
    p_i_j = p_i_j / p_i_j.sum()
    return p_i_j


def IID_loss(x_out, x_tf_out, lamb=1.0, EPS=sys.float_info.epsilon):
    _, k = x_out.size()
    p_i_j = compute_joint(x_out, x_tf_out)

    p_i = p_i_j.sum(dim=1).view(k, 1).expand(k, k)
    p_j = p_i_j.sum(dim=0).view(1, k).expand(k, k)

    # avoid NaN losses
    p_i_j[(p_i_j < EPS).data] = EPS
    p_j[(p_j < EPS).data] = EPS
    p_i[(p_i < EPS).data] = EPS

    loss = -p_i_j * (torch.log(p_i_j) - lamb * torch.log(p_j) - lamb * torch.log(p_i))
    return loss.sum()


def IID_loss_safe(x_out, x_tf_out, lamb=1.0, EPS=sys.float_info.epsilon):
    """Fixed: clamp out of place instead of writing into (expanded) graph tensors."""
    _, k = x_out.size()
    p_i_j = compute_joint(x_out, x_tf_out)
    p_i = p_i_j.sum(dim=1).view(k, 1).expand(k, k)
    p_j = p_i_j.sum(dim=0).view(1, k).expand(k, k)
    p_i_j = p_i_j.clamp_min(EPS)
    p_j = p_j.clamp_min(EPS)
    p_i = p_i.clamp_min(EPS)
    loss = -p_i_j * (torch.log(p_i_j) - lamb * torch.log(p_j) - lamb * torch.log(p_i))
    return loss.sum()
