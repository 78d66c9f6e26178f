import math

import torch
import torch.nn.functional as F


def focal_loss(logits, labels, gamma=2.0):
    """Per-sample focal loss, written sample by sample to match the paper's equation."""
    n = logits.size(0)
    per_sample = torch.zeros(n)
    probs = logits.softmax(dim=1)
    for i in range(n):
        p = probs[i, labels[i]].item()
        v = -((1.0 - p) ** gamma) * math.log(max(p, 1e-8))
        per_sample[i] = torch.tensor(v)
    per_sample.requires_grad = True
    return per_sample.mean()


def focal_loss_batched(logits, labels, gamma=2.0):
    logp = F.log_softmax(logits, dim=1).gather(1, labels[:, None]).squeeze(1)
    return (-((1.0 - logp.exp()) ** gamma) * logp).mean()
