"""
expect: none
dynamic: dismiss
source: https://github.com/JunMa11/SegWithDistMap/issues/22

SegWithDistMap's Hausdorff-distance loss computes distance-transform maps of the thresholded
prediction and of the label in NumPy (`outputs_soft.cpu().numpy() > 0.5`) and brings them
back with `torch.from_numpy`. The issue asks whether this breaks backprop; the answer in the
thread is that the maps are only a multiplicative weight: the loss is
`(seg_soft - gt)^2 * (seg_dtm^2 + gt_dtm^2)` and the gradient flows through `seg_soft`.
The asserts show every network parameter gets a gradient, the HD term changes the gradient
(weight 1 vs 0), and training lowers the HD loss.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)
np.random.seed(0)
H = W = 16
GRID = np.stack(np.meshgrid(np.arange(H), np.arange(W), indexing="ij"), -1).reshape(-1, 2)


def compute_dtm(img_gt):
    """Unsigned distance to the foreground boundary for each image of a (B, H, W) mask."""
    dtm = np.zeros(img_gt.shape, dtype=np.float32)
    for b in range(img_gt.shape[0]):
        fg = img_gt[b].reshape(-1).astype(bool)
        if fg.any() and (~fg).any():
            d = np.sqrt(((GRID[:, None, :] - GRID[None, ~fg, :]) ** 2).sum(-1)).min(1)
            dtm[b] = np.where(fg, d, 0).reshape(H, W)
    return dtm


def hd_loss(seg_soft, gt, seg_dtm, gt_dtm):
    delta_s = (seg_soft - gt.float()) ** 2
    dtm = seg_dtm ** 2 + gt_dtm ** 2
    return torch.einsum("bxy,bxy->bxy", delta_s, dtm).mean()


net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))
images = torch.randn(4, 1, H, W)
yy, xx = torch.meshgrid(torch.arange(H), torch.arange(W), indexing="ij")
gt = ((yy - 8) ** 2 + (xx - 8) ** 2 < 20).long().expand(4, H, W)
images = images + 2.0 * gt.unsqueeze(1).float()


def losses(net, alpha):
    outputs_soft = torch.sigmoid(net(images)).squeeze(1)
    loss_seg = F.binary_cross_entropy(outputs_soft, gt.float())
    with torch.no_grad():
        gt_dtm = torch.from_numpy(compute_dtm(gt.cpu().numpy()))
        seg_dtm = torch.from_numpy(compute_dtm(outputs_soft.cpu().numpy() > 0.5))
    loss_hd = hd_loss(outputs_soft, gt, seg_dtm, gt_dtm)
    return loss_seg + alpha * loss_hd, loss_hd


net.zero_grad()
losses(net, 0.1)[0].backward()
g1 = [p.grad.clone() for p in net.parameters()]
assert all(g.abs().sum() > 0 for g in g1)
net.zero_grad()
losses(net, 0.0)[0].backward()
assert any(not torch.allclose(a, p.grad) for a, p in zip(g1, net.parameters())), "HD term has a gradient"

opt = torch.optim.Adam(net.parameters(), lr=0.02)
hd_hist = []
for _ in range(40):
    total, loss_hd = losses(net, 0.1)
    opt.zero_grad()
    total.backward()
    opt.step()
    hd_hist.append(loss_hd.item())
assert hd_hist[-1] < hd_hist[0]
print("p15 ok: numpy distance maps are constant weights; HD loss", hd_hist[0], "->", hd_hist[-1])
