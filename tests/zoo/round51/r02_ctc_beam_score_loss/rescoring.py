"""Sequence-level (minimum word error) losses built on an N-best list from a NumPy CTC prefix beam search."""
from collections import defaultdict

import numpy as np
import torch
import torch.nn.functional as F


def prefix_beam_search(probs, beam=4, blank=0):
    """probs: NumPy [T, V] frame posteriors. Returns [(labels, log_score)] best first."""
    beams = {(): (1.0, 0.0)}
    for t in range(probs.shape[0]):
        nxt = defaultdict(lambda: [0.0, 0.0])
        for prefix, (p_b, p_nb) in beams.items():
            for c in range(probs.shape[1]):
                p = probs[t, c]
                if c == blank:
                    nxt[prefix][0] += (p_b + p_nb) * p
                elif prefix and prefix[-1] == c:
                    nxt[prefix + (c,)][1] += p_b * p
                    nxt[prefix][1] += p_nb * p
                else:
                    nxt[prefix + (c,)][1] += (p_b + p_nb) * p
        ranked = sorted(nxt.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))
        beams = {k: tuple(v) for k, v in ranked[:beam]}
    return [(list(k), float(np.log(v[0] + v[1]))) for k, v in beams.items() if len(k) > 0]


def edit_distance(a, b):
    d = np.arange(len(b) + 1)
    for i, x in enumerate(a, 1):
        prev, d[0] = d[0], i
        for j, y in enumerate(b, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (x != y))
    return int(d[-1])


def nbest_risk_loss(log_probs, reference, beam=4):
    """Expected error over the N-best list, from the decoder's own beam scores."""
    probs = log_probs[:, 0].detach().exp().numpy()
    nbest = prefix_beam_search(probs, beam)
    risks = torch.tensor([edit_distance(h, reference) / len(reference) for h, _ in nbest])
    scores = torch.tensor([s for _, s in nbest], requires_grad=True)
    return (torch.softmax(scores, dim=0) * risks).sum()


def nbest_risk_loss_rescored(log_probs, reference, beam=4):
    """Same expected error, but each hypothesis is rescored by the model with the CTC forward algorithm."""
    probs = log_probs[:, 0].detach().exp().numpy()
    nbest = prefix_beam_search(probs, beam)
    risks = torch.tensor([edit_distance(h, reference) / len(reference) for h, _ in nbest])
    T = log_probs.shape[0]
    scores = torch.stack([
        -F.ctc_loss(log_probs, torch.tensor([h]), torch.tensor([T]), torch.tensor([len(h)]), reduction="sum")
        for h, _ in nbest
    ])
    return (torch.softmax(scores, dim=0) * risks).sum()
