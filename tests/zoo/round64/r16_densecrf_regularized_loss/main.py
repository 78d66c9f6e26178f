"""
expect: none
dynamic: dismiss
source: https://github.com/meng-tang/rloss/blob/1caa759e568db2c7209ab73e73ac039ea3d7101c/pytorch/pytorch-deeplab_v3_plus/DenseCRFLoss.py

rloss ("On Regularized Losses for Weakly-supervised CNN Segmentation") trains
DeepLab from scribbles with partial cross-entropy plus a DenseCRF regulariser.
The PyTorch DenseCRFLoss looks like a textbook gradient leak: inside forward it
calls `.numpy()` on the softmax segmentation, runs a C++ bilateral filter on the
NumPy arrays, and returns a brand-new `Variable(torch.tensor([loss]),
requires_grad=True)`. It is correct because it is the forward of a
torch.autograd.Function: the Function's output is wired into the graph by
`.apply`, and the hand-written backward returns -2*AS/N (the filtered
segmentation stashed on ctx) as the gradient for the segmentation input. The
reproduction keeps that structure (densecrf_loss.py, dense Gaussian kernel on a
6x6 image instead of the permutohedral filter) and trains a tiny segmentation
net on scribble labels. The asserts check that the Function's gradient equals
autograd's gradient of the same energy written in torch, that the CRF term
alone reaches the network's first conv, and that training lowers both terms.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from densecrf_loss import DenseCRFLoss, bilateral_affinity

torch.manual_seed(0)
torch.set_num_threads(1)

N, C, H, W, K = 2, 3, 6, 6, 2
SIGMA_RGB, SIGMA_XY = 0.3, 2.0

# two-region images: left half dark, right half bright, plus noise
images = torch.zeros(N, C, H, W)
images[:, :, :, W // 2:] = 1.0
images += 0.05 * torch.randn_like(images)
full_labels = torch.zeros(N, H, W, dtype=torch.long)
full_labels[:, :, W // 2:] = 1
scribble = torch.full((N, H, W), 255, dtype=torch.long)  # 255 = unlabeled
scribble[:, 2, 0] = 0
scribble[:, 3, W - 1] = 1
rois = torch.ones(N, H, W)

net = nn.Sequential(nn.Conv2d(C, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, K, 3, padding=1))
crf = DenseCRFLoss(weight=1e-2, sigma_rgb=SIGMA_RGB, sigma_xy=SIGMA_XY)

# 1) gradient of the NumPy-forward Function == autograd of the same energy in torch
probs = torch.softmax(net(images), 1).detach().requires_grad_(True)
crf(images, probs, rois).sum().backward()
g_function = probs.grad.clone()

probs2 = probs.detach().clone().requires_grad_(True)
energy = 0.0
for n in range(N):
    aff = torch.from_numpy(bilateral_affinity(images[n].numpy(), SIGMA_RGB, SIGMA_XY)).float()
    s = probs2[n].reshape(K, -1)
    energy = energy - (s * (s @ aff)).sum()
(1e-2 * energy / N).backward()
assert torch.allclose(g_function, probs2.grad, atol=1e-5)

# 2) the CRF term alone reaches the network parameters
net.zero_grad()
crf(images, torch.softmax(net(images), 1), rois).sum().backward()
assert net[0].weight.grad is not None and net[0].weight.grad.abs().sum() > 0

# 3) training with partial CE + CRF regulariser
opt = torch.optim.Adam(net.parameters(), lr=2e-2)
w0 = net[0].weight.detach().clone()
hist = []
for _ in range(80):
    logits = net(images)
    ce = F.cross_entropy(logits, scribble, ignore_index=255)
    reg = crf(images, torch.softmax(logits, 1), rois).sum()
    loss = ce + reg
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append((ce.item(), reg.item()))

assert not torch.equal(w0, net[0].weight)
assert hist[-1][0] < hist[0][0] and hist[-1][1] < hist[0][1]
acc = (net(images).argmax(1) == full_labels).float().mean().item()
assert acc > 0.9  # two scribble pixels + CRF label the whole image
print("DenseCRF Function grad matches autograd; pixel accuracy from scribbles %.2f" % acc)
