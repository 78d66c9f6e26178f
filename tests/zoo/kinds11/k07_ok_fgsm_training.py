"""
expect: none
dynamic: dismiss
source: kinds check 11, kind 7

Adversarial training of a small image classifier. An FGSM attack object is built
once from the model and reused across optimizer steps. For each batch the attack
perturbs the images (taking the input gradient with torch.autograd.grad, so it
leaves parameter gradients alone) and returns detached adversarial images; then a
FRESH forward on those images computes the loss, which is backpropagated before
the optimizer step. No graph outlives a step, so no saved weight is edited before
its backward, and every parameter receives a gradient on every step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FGSM:
    def __init__(self, model, eps=0.03):
        self.model = model
        self.eps = eps

    def __call__(self, images, labels):
        images = images.clone().requires_grad_(True)
        loss = F.cross_entropy(self.model(images), labels)
        g, = torch.autograd.grad(loss, images)
        return (images + self.eps * g.sign()).clamp(0, 1).detach()


def main():
    torch.manual_seed(12)
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 10 * 10, 40), nn.ReLU(), nn.Linear(40, 6))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    attack = FGSM(model)
    for step in range(3):
        images = torch.rand(8, 3, 10, 10)
        labels = torch.randint(0, 6, (8,))
        adv = attack(images, labels)
        assert not torch.equal(adv, images)
        loss = F.cross_entropy(model(adv), labels)
        opt.zero_grad()
        loss.backward()
        for p in model.parameters():
            assert p.grad is not None and p.grad.abs().sum() > 0
        opt.step()
    print("k07 ok: 3 adversarial steps, every parameter trained each step")


if __name__ == "__main__":
    main()
