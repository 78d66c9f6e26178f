"""Composite loss for a small neural speech codec, with a metric-based quality penalty."""
import numpy as np
import torch
import torch.nn.functional as F


def mos_like_score(ref, deg):
    """NumPy stand-in for a PESQ call: segmental SNR squashed onto a 1..4.5 scale."""
    frames = len(ref) // 32
    snrs = []
    for k in range(frames):
        r = ref[k * 32:(k + 1) * 32]
        e = r - deg[k * 32:(k + 1) * 32]
        snrs.append(10 * np.log10((r ** 2).sum() / ((e ** 2).sum() + 1e-8) + 1e-8))
    seg = float(np.clip(np.mean(snrs), -10, 35))
    return 1.0 + 3.5 / (1.0 + np.exp(-(seg - 10.0) / 4.0))


def quality_penalty(synth, target, minimum=2.5):
    scores = []
    for i in range(synth.shape[0]):
        ref = target[i].detach().cpu().numpy()
        deg = synth[i].detach().cpu().numpy()
        scores.append(mos_like_score(ref, deg))
    score_t = torch.tensor(scores, dtype=torch.float32, device=synth.device)
    return F.relu(minimum - score_t).pow(2).mean()


def comprehensive_loss(outputs, targets, weights):
    wave = F.l1_loss(outputs["synth"], targets["wave"])
    feat = F.mse_loss(outputs["feat_hat"], targets["feat"])
    quality = quality_penalty(outputs["synth"], targets["wave"])
    total = weights["wave"] * wave + weights["feat"] * feat + weights["quality"] * quality
    return total, {"wave": wave.item(), "feat": feat.item(), "quality": quality.item()}
