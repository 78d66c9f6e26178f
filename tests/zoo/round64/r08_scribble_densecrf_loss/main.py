"""
expect: none
dynamic: dismiss
source: https://github.com/meng-tang/rloss/blob/1caa759e568db2c7209ab73e73ac039ea3d7101c/pytorch/pytorch-deeplab_v3_plus/DenseCRFLoss.py#L18-L48

rloss trains segmentation networks from scribbles with a partial
cross-entropy plus a DenseCRF regularised loss.  The CRF energy is evaluated
with a C++ bilateral filter on NumPy arrays, and the forward returns
Variable(torch.tensor([densecrf_loss]), requires_grad=True): a value pulled out
to NumPy and rebuilt as a fresh tensor, the very pattern that usually cuts the
graph.  Here it is correct, because it sits inside a torch.autograd.Function
whose backward returns the analytic gradient -2*AS/N for the soft
segmentation: the object returned by apply() gets the Function's grad_fn and
the network is trained through it.  The program keeps that structure (the
Function in densecrf_loss.py, with a dense NumPy bilateral affinity on 8x8
images) and a main loop training a tiny segmenter on random scribbles.  The
asserts check the loss carries a backward node, its gradient matches a pure
torch implementation of the same energy, the CRF term alone gives the network
non-zero gradients, and a few steps lower the CRF energy.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from densecrf_loss import DenseCRFLoss, gaussian_affinity

torch.manual_seed(0)
torch.set_num_threads(1)

N, K, H, W = 2, 2, 8, 8
images = torch.rand(N, 3, H, W)
images[:, :, :, : W // 2] += 1.0                     # two coloured halves
scribble = torch.full((N, H, W), 255, dtype=torch.long)
scribble[:, 2, 1] = 1
scribble[:, 5, 6] = 0

net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, K, 3, padding=1))
crf = DenseCRFLoss(weight=1e-2, sigma_rgb=0.5, sigma_xy=3.0)


def torch_reference(imgs, probs, sigma_rgb, sigma_xy):
    total = 0.0
    for i in range(imgs.shape[0]):
        Wm = torch.from_numpy(gaussian_affinity(imgs[i].numpy(), sigma_rgb, sigma_xy)).float()
        s = probs[i].reshape(K, -1)
        total = total - (s * (s @ Wm.T)).sum()
    return total / imgs.shape[0]


probs = F.softmax(net(images), dim=1)
loss_crf = crf(images, probs)
assert loss_crf.grad_fn is not None
g_fn = torch.autograd.grad(loss_crf.sum(), probs, retain_graph=True)[0]
g_ref = torch.autograd.grad(1e-2 * torch_reference(images, probs, 0.5, 3.0), probs)[0]
assert torch.allclose(g_fn, g_ref, atol=1e-5)

net.zero_grad()
crf(images, F.softmax(net(images), dim=1)).sum().backward()
assert all(p.grad is not None for p in net.parameters())
assert sum(p.grad.abs().sum().item() for p in net.parameters()) > 0

opt = torch.optim.SGD(net.parameters(), lr=0.5)
start = crf(images, F.softmax(net(images), dim=1)).item()
for _ in range(20):
    logits = net(images)
    loss = F.cross_entropy(logits, scribble, ignore_index=255) + crf(images, F.softmax(logits, dim=1)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
end = crf(images, F.softmax(net(images), dim=1)).item()
assert end < start
