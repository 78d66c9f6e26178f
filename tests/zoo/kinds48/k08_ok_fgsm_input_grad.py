"""
expect: none
dynamic: dismiss
source: kinds check 48, kind 4

An FGSM robustness probe for a small CNN digit classifier: the input batch is
detached and switched on with requires_grad_(), pushed through the model, the
loss backpropagated, and x.grad used both as a saliency map and to build an
adversarial step. This is the correct way to get gradients w.r.t. inputs.
"""
import torch
import torch.nn as nn

torch.manual_seed(7)
cnn = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4),
                    nn.Flatten(), nn.Linear(128, 10)).eval()
img = torch.rand(4, 1, 28, 28)
labels = torch.randint(0, 10, (4,))

x = img.detach().requires_grad_()
loss = nn.functional.cross_entropy(cnn(x), labels)
loss.backward()
saliency = x.grad.abs().amax(1)
assert saliency.shape == (4, 28, 28) and saliency.sum() > 0
adv = (x + 0.05 * x.grad.sign()).clamp(0, 1).detach()
with torch.no_grad():
    adv_loss = nn.functional.cross_entropy(cnn(adv), labels)
assert adv_loss > loss.detach(), (adv_loss, loss)
print("ok: input gradient gives saliency; FGSM raised loss", loss.item(), "->", adv_loss.item())
