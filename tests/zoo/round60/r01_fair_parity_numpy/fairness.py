import numpy as np
import torch


def group_rates(labels, preds, groups):
    """True/false positive rates per sensitive group, computed in NumPy."""
    tpr, fpr = [], []
    for g in np.unique(groups):
        m = groups == g
        pos = m & (labels == 1)
        neg = m & (labels == 0)
        tpr.append(preds[pos].mean() if pos.any() else 1.0)
        fpr.append(preds[neg].mean() if neg.any() else 0.0)
    return np.array(tpr), np.array(fpr)


def parity_penalty(labels, preds, groups):
    """Equalised-odds style penalty: ratio of worst to best group rate, pushed to 1."""
    labels_np = labels.cpu().numpy()
    preds_np = preds.cpu().numpy()
    tpr, fpr = group_rates(labels_np, preds_np, groups)
    tpr_parity = tpr.min() / max(tpr.max(), 1e-6)
    fpr_parity = fpr.min() / max(fpr.max(), 1e-6)
    penalty = (1 - tpr_parity) ** 2 + (1 - fpr_parity) ** 2
    penalty = torch.tensor(penalty, dtype=torch.float32, device=labels.device)
    return penalty


def soft_parity_penalty(labels, probs, groups_t):
    """Differentiable replacement: group rates from probabilities, not hard predictions."""
    pen = probs.new_zeros(())
    for y in (0, 1):
        rates = []
        for g in torch.unique(groups_t):
            m = (groups_t == g) & (labels == y)
            if m.any():
                rates.append(probs[m].mean())
        rates = torch.stack(rates)
        pen = pen + (rates.max() - rates.min()) ** 2
    return pen
