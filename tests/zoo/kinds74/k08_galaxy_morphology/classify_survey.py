"""Classify a survey cutout batch with a trained MorphologyNet.

    python classify_survey.py --ckpt morph.pt --n 16

Also holds the photometric feature extractor shared with training.
"""
import argparse

import torch

from model import MorphologyNet

N_RADII = 8


def photometric_features(cutouts):
    """cutouts: (N, H, W) flux images -> (N, 2*N_RADII + 2) features.

    Azimuthally averaged radial profile (normalised), plus the axis ratio and
    a concentration index from second moments.
    """
    n, h, w = cutouts.shape
    yy, xx = torch.meshgrid(torch.arange(h, dtype=cutouts.dtype), torch.arange(w, dtype=cutouts.dtype), indexing="ij")
    flux = cutouts.clamp_min(0) + 1e-8
    total = flux.sum(dim=(1, 2), keepdim=True)
    cy = (flux * yy).sum(dim=(1, 2), keepdim=True) / total
    cx = (flux * xx).sum(dim=(1, 2), keepdim=True) / total
    r = torch.sqrt((yy - cy) ** 2 + (xx - cx) ** 2)
    edges = torch.linspace(0, min(h, w) / 2, N_RADII + 1)
    prof = torch.stack([
        (flux * ((r >= lo) & (r < hi))).sum(dim=(1, 2)) / ((r >= lo) & (r < hi)).sum(dim=(1, 2)).clamp_min(1)
        for lo, hi in zip(edges[:-1], edges[1:])
    ], dim=1)
    prof = prof / prof[:, :1]
    syy = (flux * (yy - cy) ** 2).sum(dim=(1, 2)) / total.squeeze()
    sxx = (flux * (xx - cx) ** 2).sum(dim=(1, 2)) / total.squeeze()
    sxy = (flux * (xx - cx) * (yy - cy)).sum(dim=(1, 2)) / total.squeeze()
    tr, det = sxx + syy, sxx * syy - sxy ** 2
    disc = torch.sqrt((tr / 2) ** 2 - det).nan_to_num(0.0)
    axis_ratio = torch.sqrt((tr / 2 - disc).clamp_min(1e-6) / (tr / 2 + disc))
    concentration = prof[:, : N_RADII // 2].sum(1) / prof.sum(1)
    return torch.cat([torch.log(prof + 1e-4), prof, axis_ratio[:, None], concentration[:, None]], dim=1)


def classify(model, cutouts):
    probs = model(photometric_features(cutouts)).softmax(-1)
    return [MorphologyNet.CLASSES[i] for i in probs.argmax(-1).tolist()]


if __name__ == "__main__":
    torch.set_grad_enabled(False)
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt", default=None)
    parser.add_argument("--n", type=int, default=8)
    args = parser.parse_args()
    net = MorphologyNet(n_features=2 * N_RADII + 2)
    if args.ckpt:
        net.load_state_dict(torch.load(args.ckpt, map_location="cpu"))
    for i, label in enumerate(classify(net.eval(), torch.rand(args.n, 32, 32))):
        print(i, label)
