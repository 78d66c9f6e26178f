"""
expect: none
dynamic: dismiss
source: https://github.com/bermanmaxim/LovaszSoftmax/issues/28

The report: a user says the Lovasz loss does not train on PyTorch 1.4 because the tensors are
wrapped in the deprecated `Variable` without requires_grad, and "fixes" it by adding
requires_grad=True everywhere. In lovasz_losses.py the wrapped values are the label signs and the
Lovasz gradient vector computed from the sorted ground truth, both deliberate constants; the
gradient reaches the logits through the sorted errors. This folder trains a small segmentation
net with lovasz_hinge: the asserts show every conv parameter gets a non-zero gradient and the
loss falls, and that the weights computed by lovasz_grad carry no history, by design.
"""
import torch
import torch.nn as nn

from lovasz_losses import lovasz_grad, lovasz_hinge

torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
images = torch.randn(4, 3, 16, 16)
masks = (images[:, :1] > 0.2).long()[:, 0]

losses = []
for step in range(30):
    logits = net(images)[:, 0]
    loss = lovasz_hinge(logits, masks)
    opt.zero_grad()
    loss.backward()
    if step == 0:
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in net.parameters())
    opt.step()
    losses.append(loss.item())

assert losses[-1] < 0.7 * losses[0], losses
assert not lovasz_grad(masks[0].reshape(-1)).requires_grad
print("ok: Lovasz hinge with constant Variable weights trains", round(losses[0], 3), "->", round(losses[-1], 3))
