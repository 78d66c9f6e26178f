import numpy as np
import torch


def regression_loss(pred, target):
    return torch.mean((pred - target) ** 2)


def diversity_penalty(pred, ensemble_mean):
    """Negative-correlation term: -(f_i - f_bar)^2, averaged over the batch."""
    spread = (pred - ensemble_mean).detach().cpu().numpy()
    return torch.as_tensor(float(-np.mean(spread ** 2)), dtype=pred.dtype)


def summarize(preds, target):
    stacked = torch.stack(preds)
    return {
        "ensemble_mse": regression_loss(stacked.mean(0), target).item(),
        "member_spread": stacked.var(0).mean().item(),
    }
