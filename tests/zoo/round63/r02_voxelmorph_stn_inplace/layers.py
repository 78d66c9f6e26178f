import torch
import torch.nn as nn
import torch.nn.functional as nnf


class SpatialTransformer(nn.Module):
    """Warp an image with a dense displacement field given in pixels (2-D)."""

    def __init__(self, size, mode="bilinear"):
        super().__init__()
        self.mode = mode
        vectors = [torch.arange(0, s) for s in size]
        grids = torch.meshgrid(vectors, indexing="ij")
        grid = torch.stack(grids).unsqueeze(0).float()
        self.register_buffer("grid", grid)

    def forward(self, src, flow):
        new_locs = self.grid + flow
        shape = flow.shape[2:]

        # grid_sample wants coordinates in [-1, 1]; rescale each axis in place
        for i in range(len(shape)):
            new_locs[:, i, ...] = 2 * (new_locs[:, i, ...] / (shape[i] - 1) - 0.5)

        # channels last, and (row, col) -> (x, y) order for grid_sample
        new_locs = new_locs.permute(0, 2, 3, 1)
        new_locs = new_locs[..., [1, 0]]
        return nnf.grid_sample(src, new_locs, align_corners=True, mode=self.mode)


class SpatialTransformerReference(SpatialTransformer):
    """Same warp written without any in-place write, used only to compare grads."""

    def forward(self, src, flow):
        locs = self.grid + flow
        shape = flow.shape[2:]
        axes = [2 * (locs[:, i] / (shape[i] - 1) - 0.5) for i in range(len(shape))]
        locs = torch.stack(axes, dim=1).permute(0, 2, 3, 1)[..., [1, 0]]
        return nnf.grid_sample(src, locs, align_corners=True, mode=self.mode)
