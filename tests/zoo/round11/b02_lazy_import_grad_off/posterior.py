"""Posterior summaries (latent means and spreads) for plotting and clustering."""
import torch

torch.set_grad_enabled(False)


def latent_summary(encoder, x):
    z = encoder(x)
    return z.mean(0), z.std(0)
