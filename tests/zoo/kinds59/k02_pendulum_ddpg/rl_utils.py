import torch


def update(opt, loss, scale=1.0, max_norm=None):
    opt.zero_grad()
    (loss * scale).backward()
    if max_norm is not None:
        params = [p for g in opt.param_groups for p in g["params"]]
        torch.nn.utils.clip_grad_norm_(params, max_norm)
    opt.step()


def soft_update(target, source, tau):
    with torch.no_grad():
        for t, s in zip(target.parameters(), source.parameters()):
            t.mul_(1 - tau).add_(tau * s)
