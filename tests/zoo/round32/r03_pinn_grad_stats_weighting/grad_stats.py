import torch
from torch import nn
from torch.autograd import grad


def max_mean_abs_grad(loss, net):
    """Max and mean |d loss / d theta| over the Linear layers (Wang et al. annealing)."""
    pieces = []
    for m in net.modules():
        if not isinstance(m, nn.Linear):
            continue
        for g in grad(loss, (m.weight, m.bias), retain_graph=True, allow_unused=True):
            if g is not None:
                pieces.append(g.abs().flatten())
    flat = torch.cat(pieces)
    return flat.max(), flat.mean()


class AnnealedWeight:
    def __init__(self, alpha=0.9):
        self.alpha = alpha
        self.value = torch.tensor(1.0)

    def update(self, loss_res, loss_bc, net):
        gmax_res, _ = max_mean_abs_grad(loss_res, net)
        _, gmean_bc = max_mean_abs_grad(loss_bc, net)
        hat = (gmax_res / (gmean_bc + 1e-8)).clamp(max=50.0)
        self.value = (1 - self.alpha) * self.value + self.alpha * hat
        return self.value
