import torch


def optimize(opt, loss, clip=10.0):
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(
        [p for g in opt.param_groups for p in g["params"]], clip)
    opt.step()


def soft_update(target, online, tau=0.005):
    with torch.no_grad():
        for tp, op in zip(target.parameters(), online.parameters()):
            tp.lerp_(op, tau)
