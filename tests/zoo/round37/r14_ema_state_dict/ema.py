import copy
import math

import torch.nn as nn


class ModelEMA:
    """Keeps an exponential moving average of a model's floating-point state."""

    def __init__(self, model: nn.Module, decay=0.9, tau=20):
        self.ema = copy.deepcopy(model).eval()
        for p in self.ema.parameters():
            p.requires_grad_(False)
        self.updates = 0
        self.decay = lambda n: decay * (1 - math.exp(-n / tau))

    def update(self, model: nn.Module):
        self.updates += 1
        d = self.decay(self.updates)
        msd = model.state_dict()  # default keep_vars=False: tensors come back detached
        ema_v, model_v = [], []
        for k, v in self.ema.state_dict().items():
            if v.dtype.is_floating_point:
                ema_v.append(v)
                model_v.append(msd[k])
        for e, m in zip(ema_v, model_v):
            e.mul_(d).add_(m, alpha=1 - d)  # in place, no no_grad() block, no .detach()
