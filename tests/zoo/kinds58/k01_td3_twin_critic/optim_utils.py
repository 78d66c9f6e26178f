"""Optimisation helpers shared by the continuous-control agents."""
import torch


def apply_update(optimizer, loss, max_grad_norm=None):
    """zero_grad -> backward -> (clip) -> step, returns the loss value for logging."""
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    if max_grad_norm is not None:
        params = [p for group in optimizer.param_groups for p in group["params"]]
        torch.nn.utils.clip_grad_norm_(params, max_grad_norm)
    optimizer.step()
    return loss.item()


@torch.no_grad()
def polyak(target, source, tau):
    for t, s in zip(target.parameters(), source.parameters()):
        t.mul_(1.0 - tau).add_(s, alpha=tau)
