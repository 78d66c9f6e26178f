"""Target-network helpers shared by the value-based agents."""
import copy

import torch


def make_target(online):
    target = copy.deepcopy(online)
    for p in target.parameters():
        p.requires_grad_(False)
    return target


@torch.no_grad()
def soft_update(target, online, tau):
    """Polyak averaging: target <- tau * target + (1 - tau) * online."""
    for p_t, p_o in zip(target.parameters(), online.parameters()):
        p_t.data.mul_(tau).add_(p_o.data, alpha=1.0 - tau)
