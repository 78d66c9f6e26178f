import torch
import torch.nn.functional as F


def fgsm(model, images, labels, eps=8 / 255):
    images = images.clone().requires_grad_(True)
    loss = F.cross_entropy(model(images), labels)
    loss.backward()
    adv = images + eps * images.grad.sign()
    return adv.clamp(0, 1).detach()
