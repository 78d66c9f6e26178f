import copy

import torch


def grad_norm(model):
    norms = [p.grad.norm(p=2) for p in model.parameters() if p.grad is not None]
    return torch.norm(torch.stack(norms), p=2)


@torch.no_grad()
def ascend(model, rho=0.05):
    """Move the weights to the worst-case point in a rho-ball; return the original weights."""
    backup = copy.deepcopy(model.state_dict())
    scale = rho / (grad_norm(model) + 1e-12)
    for p in model.parameters():
        if p.grad is not None:
            p.add_(p.grad * scale)
    return backup
