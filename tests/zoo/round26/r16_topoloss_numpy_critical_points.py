"""
expect: none
dynamic: dismiss
source: https://github.com/HuXiaoling/TopoLoss/issues/8

TopoLoss computes persistence diagrams on a detached numpy copy of the likelihood map,
then builds a weight map (1 at critical points) and a target map with torch.tensor(...),
and the loss is ((likelihood * weight_map - ref_map) ** 2).sum(). A user asked how a
loss computed after .detach().numpy() can backpropagate. It can: numpy only chooses
WHICH pixels to penalise and toward what value; the loss multiplies the original,
graph-connected likelihood tensor. Here a small segmentation net uses a numpy
critical-point finder in the same way; the asserts show the maps carry no graph, the
gradient reaches the net only at the selected pixels, and the topology loss goes down.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def critical_points(lh, thresh=0.5):
    """Spurious foreground peaks outside the main blob: push them to 0."""
    weight = np.zeros_like(lh)
    ref = np.zeros_like(lh)
    pad = np.pad(lh, 1, mode="edge")
    neigh = np.stack([pad[1 + dy:1 + dy + lh.shape[0], 1 + dx:1 + dx + lh.shape[1]]
                      for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx])
    peaks = (lh >= neigh.max(0)) & (lh > thresh)
    ys, xs = np.nonzero(peaks)
    keep = np.argmax(lh[ys, xs]) if len(ys) else None
    for i, (py, px) in enumerate(zip(ys, xs)):
        if i != keep:
            weight[py, px] = 1.0
            ref[py, px] = 0.0
    return weight, ref


def get_topo_loss(likelihood_tensor):
    likelihood = torch.sigmoid(likelihood_tensor).clone()
    lh = torch.squeeze(likelihood).cpu().detach().numpy()
    weight_np, ref_np = critical_points(lh)
    topo_cp_weight_map = torch.tensor(weight_np, dtype=torch.float)
    topo_cp_ref_map = torch.tensor(ref_np, dtype=torch.float)
    probs = torch.sigmoid(likelihood_tensor).squeeze()
    return (((probs * topo_cp_weight_map) - topo_cp_ref_map) ** 2).sum(), topo_cp_weight_map


net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))
with torch.no_grad():
    net[2].bias.fill_(0.3)
image = torch.rand(1, 1, 24, 24)

logits = net(image)
loss, wmap = get_topo_loss(logits)
assert not wmap.requires_grad and wmap.sum() > 0
g_logits = torch.autograd.grad(loss, logits, retain_graph=True)[0].squeeze()
assert torch.all((g_logits != 0) <= (wmap > 0))         # only at selected critical pixels
assert all(g is not None and g.abs().sum() > 0 for g in torch.autograd.grad(loss, list(net.parameters())))

opt = torch.optim.Adam(net.parameters(), lr=1e-2)
first = loss.item()
for _ in range(30):
    opt.zero_grad()
    get_topo_loss(net(image))[0].backward()
    opt.step()
assert get_topo_loss(net(image))[0].item() < first
print("ok: numpy picks the pixels, the loss still differentiates the likelihood")
