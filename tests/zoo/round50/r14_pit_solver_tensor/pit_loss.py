"""Permutation-invariant training wrapper and separation criteria."""
from itertools import permutations

import torch


def neg_si_snr(ref, est, eps=1e-8):
    ref = ref - ref.mean()
    est = est - est.mean()
    target = (est @ ref) / (ref @ ref + eps) * ref
    noise = est - target
    return -10 * torch.log10((target @ target + eps) / (noise @ noise + eps))


def spectral_l1(ref, est, n_fft=64):
    win = torch.hann_window(n_fft)
    spec = lambda x: torch.stft(x, n_fft, hop_length=n_fft // 4, window=win, return_complex=True).abs()
    return (spec(ref) - spec(est)).abs().mean()


class PITSolver:
    def __init__(self, criterion, independent_perm=True):
        self.criterion = criterion
        self.independent_perm = independent_perm

    def pair_loss(self, ref, inf, b, s, t):
        return self.criterion(ref[b, s], inf[b, t])

    def _loss_with_perm(self, ref, inf, perm):
        num_spk = ref.size(1)
        per_utt = [torch.stack([self.pair_loss(ref, inf, b, s, perm[b][s]) for s in range(num_spk)]).mean()
                   for b in range(ref.size(0))]
        return torch.tensor(per_utt)

    def _search_perm(self, ref, inf):
        num_spk = ref.size(1)
        all_perms = list(permutations(range(num_spk)))
        rows = []
        for b in range(ref.size(0)):
            rows.append(torch.stack([
                torch.stack([self.pair_loss(ref, inf, b, s, p[s]) for s in range(num_spk)]).mean()
                for p in all_perms]))
        losses, best = torch.stack(rows).min(dim=1)
        return losses, [all_perms[i] for i in best.tolist()]

    def __call__(self, ref, inf, others=None):
        """ref, inf: [batch, speakers, samples]; returns (loss, stats with the permutation)."""
        others = others or {}
        if not self.independent_perm and "perm" in others:
            perm = others["perm"]
            losses = self._loss_with_perm(ref, inf, perm)
        else:
            losses, perm = self._search_perm(ref, inf)
        return losses.mean(), {"perm": perm}
