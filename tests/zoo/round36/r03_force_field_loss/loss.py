import torch


class WeightedEnergyForceLoss:
    """Sum of weighted energy and force MSE terms.

    Every individual term is also returned in a dict for the metrics logger;
    those copies are detached so that keeping them around for the epoch
    statistics does not keep each step's graph alive.
    """

    def __init__(self, coeffs):
        self.coeffs = dict(coeffs)

    def __call__(self, pred, ref):
        total = 0.0
        contrib = {}
        for key, coeff in self.coeffs.items():
            term = torch.mean((pred[key] - ref[key]) ** 2)
            total = total + coeff * term
            contrib[key] = term.detach()
        return total, contrib
