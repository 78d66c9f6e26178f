"""Preview writer for the style-transfer loop: turns the optimised canvas into 8-bit pixels every few steps."""
import torch


def as_grid(batch):
    # Like the old make_grid for a one-image batch: it hands back a view, not a copy.
    if batch.dim() == 4 and batch.size(0) == 1:
        return batch.squeeze(0)
    return torch.cat(list(batch), dim=2)


def snapshot(canvas, frames):
    grid = as_grid(canvas.cpu().detach())
    grid.mul_(255).add_(0.5).clamp_(0, 255)
    frames.append(grid.permute(1, 2, 0).to(torch.uint8))
    return frames[-1]


def snapshot_copy(canvas, frames):
    grid = as_grid(canvas.detach().clone())
    pixels = (grid * 255 + 0.5).clamp(0, 255)
    frames.append(pixels.permute(1, 2, 0).to(torch.uint8))
    return frames[-1]
