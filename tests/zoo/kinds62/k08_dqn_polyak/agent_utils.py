import copy

import torch


def make_target(online):
    target = copy.deepcopy(online)
    for p in target.parameters():
        p.requires_grad_(False)
    return target


def polyak(online, target, tau=0.01):
    with torch.no_grad():
        for p_targ, p in zip(target.parameters(), online.parameters()):
            p_targ.data = tau * p + (1.0 - tau) * p_targ


def param_distance(a, b):
    return sum((p - q).pow(2).sum() for p, q in zip(a.parameters(), b.parameters())).sqrt().item()
