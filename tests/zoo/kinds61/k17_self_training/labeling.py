import numpy as np
import torch


def softmax_np(z):
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def confident_pseudo_labels(logits, threshold=0.9, temperature=1.0):
    """Hard pseudo-labels for the unlabelled batch, FixMatch style."""
    probs = softmax_np(logits.detach().cpu().numpy() / temperature)
    conf = probs.max(axis=1)
    labels = probs.argmax(axis=1)
    mask = conf >= threshold
    return torch.tensor(labels, dtype=torch.long), torch.from_numpy(mask)


def class_balance(labels, mask, n_classes):
    counts = np.bincount(labels.numpy()[mask.numpy()], minlength=n_classes)
    return counts / max(counts.sum(), 1)
