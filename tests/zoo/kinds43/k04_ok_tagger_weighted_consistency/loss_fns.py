"""Loss for the audio-clip tagger: multi-label BCE plus a confidence-weighted noise-consistency term."""
import torch
import torch.nn.functional as F


def tagging_objective(tagger, clips, labels, weight, lam=0.5, noise=0.3, generator=None):
    logits = tagger(clips)
    task = F.binary_cross_entropy_with_logits(logits, labels)
    jitter = noise * torch.randn(clips.shape, generator=generator)
    noisy_logits = tagger(clips + jitter)
    consistency = (torch.sigmoid(noisy_logits) - torch.sigmoid(logits)).pow(2).mean(-1)
    return task + lam * (weight * consistency).mean()
