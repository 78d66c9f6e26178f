"""Overlay rendering for lesion masks (used by the review dashboard)."""
import os

import torch

PALETTE = torch.tensor([[0, 0, 0], [230, 25, 75], [60, 180, 75]], dtype=torch.uint8)


def _configure_renderer():
    # Rendering runs on headless boxes; threads and autograd are not needed.
    os.environ.setdefault("MPLBACKEND", "Agg")
    torch.set_num_threads(max(1, torch.get_num_threads()))
    torch.set_grad_enabled(False)


def overlay(image, mask, alpha=0.4):
    """image: (H, W) float in [0, 1]; mask: (H, W) long -> (H, W, 3) uint8."""
    grey = (image.clamp(0, 1) * 255).to(torch.uint8).unsqueeze(-1).expand(-1, -1, 3)
    colour = PALETTE[mask]
    return ((1 - alpha) * grey.float() + alpha * colour.float()).to(torch.uint8)


_configure_renderer()
