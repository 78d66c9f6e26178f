import torch
import torch.nn.functional as F


@torch.no_grad()
def reconstruction_penalty(decoder, features, inputs):
    """Mean squared reconstruction error of the inputs from the encoder features."""
    recon = decoder(features)
    return F.mse_loss(recon, inputs)


def reconstruction_penalty_fixed(decoder, features, inputs):
    recon = decoder(features)
    return F.mse_loss(recon, inputs)
