import torch


@torch.no_grad()
def ema_update_(shadow, model, decay):
    """shadow[name] <- decay * shadow[name] + (1 - decay) * param."""
    for name, param in model.named_parameters():
        shadow[name].mul_(decay).add_(param, alpha=1.0 - decay)


def ramp_up(step, length):
    t = min(step / length, 1.0)
    return float(torch.exp(torch.tensor(-5.0 * (1.0 - t) ** 2)))
