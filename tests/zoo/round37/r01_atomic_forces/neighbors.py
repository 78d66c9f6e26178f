"""Neighbour-list helper for a toy point-cloud potential (numpy based, like many MD codes)."""
import numpy as np
import torch


def neighbor_list_and_relative_vec(pos, r_max):
    """Return (edge_index, edge_vec) for all pairs closer than r_max."""
    xyz = pos.detach().cpu().numpy()
    n = xyz.shape[0]
    src, dst = [], []
    for i in range(n):
        for j in range(n):
            if i != j and np.linalg.norm(xyz[j] - xyz[i]) < r_max:
                src.append(i)
                dst.append(j)
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    displacements = xyz[dst] - xyz[src]
    edge_vec = torch.as_tensor(displacements, dtype=pos.dtype)
    edge_index = torch.stack([torch.from_numpy(src), torch.from_numpy(dst)])
    return edge_index, edge_vec


def neighbor_list_torch(pos, r_max):
    """Fixed variant: indices from numpy, displacements recomputed in torch."""
    edge_index, _ = neighbor_list_and_relative_vec(pos, r_max)
    edge_vec = pos[edge_index[1]] - pos[edge_index[0]]
    return edge_index, edge_vec
