"""source: https://pytorch.org/tutorials/beginner/fgsm_tutorial.html

Adversarial training of a small CNN with FGSM examples. The attack helper clones the batch,
detaches it and calls requires_grad_() on it to get the input gradient, then builds the
perturbed batch under torch.no_grad(). The cut history belongs to the input, not to any
parameter, so the classifier still trains on both clean and adversarial batches.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def fgsm_examples(model, images, labels, eps):
    x_adv = images.clone().detach().requires_grad_(True)
    loss = F.cross_entropy(model(x_adv), labels)
    grad, = torch.autograd.grad(loss, x_adv)
    with torch.no_grad():
        x_adv = (x_adv + eps * grad.sign()).clamp(0.0, 1.0)
    return x_adv


torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(8 * 7 * 7, 10),
)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
w_before = model[0].weight.detach().clone()

for step in range(5):
    images = torch.rand(16, 1, 14, 14)
    labels = torch.randint(0, 10, (16,))
    adv_images = fgsm_examples(model, images, labels, eps=0.1)
    loss = 0.5 * F.cross_entropy(model(images), labels) \
        + 0.5 * F.cross_entropy(model(adv_images), labels)
    opt.zero_grad()
    loss.backward()
    assert all(p.grad is not None for p in model.parameters())
    opt.step()

assert not torch.equal(model[0].weight, w_before)
print("ok: classifier trains on clean + adversarial batches")
