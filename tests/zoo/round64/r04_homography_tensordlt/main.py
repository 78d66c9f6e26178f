"""
expect: GL002 homography.py:34, GL003 homography.py:35, GL002 homography.py:36, GL003 homography.py:37
dynamic: confirm
source: https://github.com/pvrohin/AutoPano/blob/1b7e531ace10ad31a83f9507418335e87c34e579/Phase2/Code/Network/Network_Unsupervised.py#L60-L85

In this unsupervised deep-homography project (image registration of two
patches), tensorDLT turns the network's 4-corner offsets into a homography by
filling Python lists with per-element tensor expressions and rebuilding them
with torch.tensor(A) / torch.tensor(b).  That copy keeps only the numbers, so
the homography, the warped patch and the photometric loss no longer depend on
the network; setting A.requires_grad = True afterwards only makes backward()
run, it accumulates gradient into the throw-away A and b leaves and the
HomographyNet never receives any.  The unsupervised mode of the project thus
cannot learn.  Here tensor_dlt sits in homography.py with the warp and loss,
and main.py runs the training loop on random patch pairs.  The asserts show
the rebuild warning fires, every network parameter keeps .grad None and the
weights are unchanged after several optimizer steps; with the DLT matrix
assembled by torch.stack the same loop gives non-zero gradients and the
weights move.
"""
import warnings

import torch

from homography import HomographyNet, tensor_dlt, tensor_dlt_stacked, warp, photometric_loss

torch.manual_seed(0)
torch.set_num_threads(1)

corners = torch.tensor([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])


def batch(n=4):
    p_a = torch.rand(n, 1, 16, 16)
    p_b = torch.roll(p_a, shifts=1, dims=3) + 0.01 * torch.randn(n, 1, 16, 16)
    return p_a, p_b, corners.expand(n, 4, 2)


def train(dlt, steps=3):
    net = HomographyNet()
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    w0 = [p.detach().clone() for p in net.parameters()]
    for _ in range(steps):
        p_a, p_b, c_a = batch()
        h4pt = net(torch.cat([p_a, p_b], dim=1))
        loss = photometric_loss(warp(p_a, dlt(c_a, h4pt)), p_b)
        opt.zero_grad()
        loss.backward()
        grads = [p.grad for p in net.parameters()]
        opt.step()
    moved = any(not torch.equal(a, p) for a, p in zip(w0, net.parameters()))
    return grads, moved


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    grads, moved = train(tensor_dlt)
assert any("Converting a tensor with requires_grad=True to a scalar" in str(w.message) for w in caught)
assert all(g is None for g in grads)
assert not moved

grads, moved = train(tensor_dlt_stacked)
assert all(g is not None for g in grads)
assert sum(g.abs().sum().item() for g in grads) > 0
assert moved
