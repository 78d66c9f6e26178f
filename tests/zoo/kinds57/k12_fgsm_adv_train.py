"""
expect: none
dynamic: dismiss
source: none, invented

Adversarial training of a small image classifier in the old `Variable` style. For each batch the clean
images are wrapped with `requires_grad=True`, the loss is backpropagated to get the input gradient, and
the FGSM example is built as `Variable(images.data + eps * images.grad.sign(), requires_grad=True)`.
That re-wrapping starts a new leaf from the data, not from a model output, which is what an adversarial
input should be: the perturbation is a fixed function of the data and the classifier is then trained on
it through its own forward. The asserts show the perturbation has max-norm `eps`, that the classifier's
weights receive gradients from the adversarial loss and move, and that accuracy on fresh FGSM examples
rises during training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

torch.manual_seed(0)
torch.set_num_threads(1)


def stripes(n=512):
    labels = torch.randint(0, 2, (n,))
    imgs = 0.3 * torch.rand(n, 1, 8, 8)
    imgs[labels == 0, :, ::2, :] += 0.6   # horizontal stripes
    imgs[labels == 1, :, :, ::2] += 0.6   # vertical stripes
    return imgs.clamp(0, 1), labels


def fgsm(model, images, labels, eps):
    images = Variable(images, requires_grad=True)
    loss = F.cross_entropy(model(images), Variable(labels))
    model.zero_grad()
    loss.backward()
    adv = Variable(images.data + eps * images.grad.sign(), requires_grad=True)
    return adv


def robust_accuracy(model, images, labels, eps):
    adv = fgsm(model, images, labels, eps)
    with torch.no_grad():
        return (model(adv).argmax(-1) == labels).float().mean().item()


if __name__ == "__main__":
    eps = 0.1
    model = nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    images, labels = stripes()
    test_images, test_labels = stripes(256)
    acc_before = robust_accuracy(model, test_images, test_labels, eps)
    w0 = model[1].weight.detach().clone()

    for epoch in range(5):
        for i in range(0, 512, 64):
            x, y = images[i:i + 64], labels[i:i + 64]
            x_adv = fgsm(model, x, y, eps)
            assert torch.allclose((x_adv.data - x).abs().max(), torch.tensor(eps))
            loss = F.cross_entropy(model(x_adv), y)
            optimizer.zero_grad()
            loss.backward()
            assert model[1].weight.grad.abs().sum() > 0
            optimizer.step()

    acc_after = robust_accuracy(model, test_images, test_labels, eps)
    assert not torch.equal(model[1].weight, w0)
    assert acc_after > acc_before and acc_after > 0.9, (acc_before, acc_after)
    print(f"FGSM accuracy {acc_before:.2f} -> {acc_after:.2f}")
