"""Generator-side losses for a small voice-conversion GAN."""
import torch
import torch.nn as nn


def masked_mean(x, mask_ratio):
    # keep only the first `mask_ratio` share of frames (padding is at the end)
    n = max(1, int(round(x.shape[-1] * mask_ratio)))
    return x[..., :n].mean()


class FeatureLoss(nn.Module):
    """L1 distance between discriminator feature maps of real and fake audio."""

    def __init__(self, n_blocks=2, n_layers=3):
        super().__init__()
        self.n_blocks = n_blocks
        self.n_layers = n_layers

    def pair_distance(self, fake_map, real_map):
        return torch.abs(fake_map - real_map).detach()

    def forward(self, real, fake, mask_ratio=1.0):
        loss = torch.zeros((), device=real[0][0].device, dtype=real[0][0].dtype)
        wt = (1.0 / self.n_blocks) * (4.0 / (self.n_layers + 1))
        for i in range(self.n_blocks):
            for j in range(len(fake[i]) - 1):
                loss = loss + wt * masked_mean(self.pair_distance(fake[i][j], real[i][j]), mask_ratio)
        return loss


class FeatureLossTargetDetached(FeatureLoss):
    """Same loss with only the real (target) features cut from the graph."""

    def pair_distance(self, fake_map, real_map):
        return torch.abs(fake_map - real_map.detach())


def adversarial_g_loss(fake_logits):
    return sum(((1.0 - lg[-1]) ** 2).mean() for lg in fake_logits) / len(fake_logits)
