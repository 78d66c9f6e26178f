"""Topology-style penalty for myelin masks, computed per image on the predicted label map (NumPy path)."""
import numpy as np
import torch


def get_topo_loss(label_map, gt_map):
    # crude stand-in for a persistence-based term: mismatch of boundary length and foreground area
    def boundary(m):
        return (m[1:, :] - m[:-1, :]).abs().sum() + (m[:, 1:] - m[:, :-1]).abs().sum()
    return (boundary(label_map) - boundary(gt_map)).abs() / label_map.numel() + \
        (label_map.mean() - gt_map.mean()).abs()


def topo_module(lh, gt):
    topoloss_sum = []
    for i in range(len(lh)):
        lh_re = lh[i].detach().cpu()
        lh_np = np.argmax(lh_re.numpy(), axis=0).astype(np.float32)
        lh_t = torch.from_numpy(lh_np)

        gt_re = gt[i].detach().cpu()
        gt_np = np.argmax(gt_re.numpy(), axis=0).astype(np.float32)
        gt_t = torch.from_numpy(gt_np)

        topoloss_sum.append(get_topo_loss(lh_t, gt_t))
    loss_topo_out = 0
    for item in topoloss_sum:
        loss_topo_out = loss_topo_out + item
    return loss_topo_out / len(topoloss_sum)
