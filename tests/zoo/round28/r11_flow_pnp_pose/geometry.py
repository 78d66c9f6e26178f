"""Correspondence + pose helpers for the flow-to-pose head."""
import numpy as np
import torch


def sample_grid(h, w, step):
    ys, xs = np.meshgrid(np.arange(0, h, step), np.arange(0, w, step), indexing="ij")
    return np.stack([xs.ravel(), ys.ravel()], axis=1)


def correspondences_from_flow(flow, depth, step=2):
    """flow: (2, H, W) network output, depth: (H, W) sensor depth.

    Returns matched 2D points (grid moved by the flow) and their 3D points.
    """
    h, w = depth.shape
    grid = sample_grid(h, w, step)
    flow_px = flow.int()                                   # snap to whole pixels
    flow_np = flow_px.cpu().permute(1, 2, 0).numpy()
    moved = grid + flow_np[grid[:, 1], grid[:, 0]]
    pts2d = torch.tensor(moved, dtype=torch.float32)
    z = depth[grid[:, 1], grid[:, 0]].unsqueeze(1)
    uv = torch.as_tensor(grid, dtype=torch.float32)
    pts3d = torch.cat([uv * z, z], dim=1)
    return pts2d, pts3d


def solve_projection(pts2d, pts3d):
    """Least-squares linear camera (3D -> 2D), differentiable w.r.t. both inputs."""
    ones = torch.ones(pts3d.shape[0], 1)
    A = torch.cat([pts3d, ones], dim=1)
    return torch.linalg.lstsq(A, pts2d).solution        # (4, 2)
