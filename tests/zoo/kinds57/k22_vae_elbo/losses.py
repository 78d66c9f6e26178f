import torch
import torch.nn.functional as F


def gaussian_kl(mu, logvar):
    """KL(q(z|x) || N(0, I)) averaged over the batch."""
    return (-0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(-1)).mean()


def kl_term(mu, logvar, free_bits=0.0):
    kl = gaussian_kl(mu, logvar)
    return torch.clamp(kl - free_bits, min=0.0).item()


def elbo_loss(recon, x, mu, logvar, beta=1.0):
    rec = F.binary_cross_entropy_with_logits(recon, x, reduction="sum") / x.shape[0]
    return rec + beta * kl_term(mu, logvar)
