import torch


def update(opt, loss, params=None, max_norm=None):
    opt.zero_grad()
    loss.backward()
    if max_norm is not None:
        torch.nn.utils.clip_grad_norm_(params, max_norm)
    opt.step()
    return loss.item()


def soft_update(target, source, tau):
    with torch.no_grad():
        for t, s in zip(target.parameters(), source.parameters()):
            t.lerp_(s, tau)
