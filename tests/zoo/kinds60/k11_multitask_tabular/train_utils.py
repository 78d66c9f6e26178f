import torch


def update(opt, loss, params=None, max_norm=None):
    opt.zero_grad()
    loss.backward()
    if max_norm is not None:
        torch.nn.utils.clip_grad_norm_(params, max_norm)
    opt.step()
    return loss.item()


def add_feature_noise(x, drop=0.2, sigma=0.1):
    mask = (torch.rand_like(x) > drop).float()
    return x * mask + sigma * torch.randn_like(x)


class Meter:
    def __init__(self):
        self.total, self.count = 0.0, 0

    def add(self, value):
        self.total += value
        self.count += 1

    @property
    def mean(self):
        return self.total / max(self.count, 1)
