"""Permutation-invariant SI-SNR loss for speech separation, written with in-place masking."""
from itertools import permutations

import torch

EPS = 1e-8


def length_mask(source, source_lengths):
    B, C, T = source.size()
    steps = torch.arange(T).unsqueeze(0)
    return (steps < source_lengths.unsqueeze(1)).to(source.dtype).unsqueeze(1)  # B x 1 x T


def si_snr_with_pit(source, estimate_source, source_lengths):
    """source, estimate_source: B x C x T. Returns the best-permutation SI-SNR per utterance (B,)."""
    B, C, T = source.size()
    mask = length_mask(source, source_lengths)
    estimate_source *= mask

    n = source_lengths.view(-1, 1, 1).to(source.dtype)
    zero_mean_target = source - torch.sum(source, dim=2, keepdim=True) / n
    zero_mean_estimate = estimate_source - torch.sum(estimate_source, dim=2, keepdim=True) / n
    zero_mean_target *= mask
    zero_mean_estimate *= mask

    s_target = zero_mean_target.unsqueeze(1)      # B x 1 x C x T
    s_estimate = zero_mean_estimate.unsqueeze(2)  # B x C x 1 x T
    dot = torch.sum(s_estimate * s_target, dim=3, keepdim=True)
    target_energy = torch.sum(s_target ** 2, dim=3, keepdim=True) + EPS
    proj = dot * s_target / target_energy
    noise = s_estimate - proj
    pair_si_snr = torch.sum(proj ** 2, dim=3) / (torch.sum(noise ** 2, dim=3) + EPS)
    pair_si_snr = 10 * torch.log10(pair_si_snr + EPS)  # B x C(est) x C(target)

    perms = source.new_tensor(list(permutations(range(C))), dtype=torch.long)
    index = perms.unsqueeze(2)
    perms_one_hot = source.new_zeros((*perms.size(), C)).scatter_(2, index, 1)
    snr_set = torch.einsum('bij,pij->bp', [pair_si_snr, perms_one_hot])
    max_snr, _ = torch.max(snr_set, dim=1, keepdim=True)
    max_snr /= C
    return max_snr.squeeze(1)


def pit_loss(source, estimate_source, source_lengths):
    return 0 - torch.mean(si_snr_with_pit(source, estimate_source, source_lengths))
