"""
expect: none
dynamic: dismiss
source: kind 5

A small convolutional image classifier is trained normally; between steps, a saliency
function makes a leaf of the input images (detach + requires_grad_), takes the gradient of
the class score with respect to those pixels and returns the map detached. The maps are only
summarised for display, nothing is trained through them; the classifier weights still change
and the saliency pass leaves no .grad on the parameters.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyCNN(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.fc = nn.Linear(8, classes)

    def forward(self, img):
        return self.fc(F.relu(self.conv(img)).mean((2, 3)))


def pixel_importance(model, images, classes):
    images = images.detach().requires_grad_()
    score = model(images).gather(1, classes[:, None]).sum()
    (grad,) = torch.autograd.grad(score, images)
    return grad.abs().amax(1).detach()


def main():
    torch.manual_seed(0)
    images = torch.randn(16, 1, 12, 12)
    labels = torch.randint(0, 3, (16,))
    model = TinyCNN()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    before = model.conv.weight.clone()

    heat = pixel_importance(model, images, labels)
    assert heat.shape == (16, 12, 12) and not heat.requires_grad
    assert model.conv.weight.grad is None

    history = []
    for _ in range(3):
        loss = F.cross_entropy(model(images), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        history.append(pixel_importance(model, images, labels).mean().item())
    assert not torch.equal(model.conv.weight, before)
    print("ok: classifier trained; saliency means", [round(h, 4) for h in history])


if __name__ == "__main__":
    main()
