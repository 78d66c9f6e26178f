"""
expect: none
dynamic: dismiss
source: kind 10

A robust image classifier runs a projected-gradient attack inside its forward while training:
a nested function makes a leaf copy of the input, calls backward on the attack loss with
inputs=[that copy] so only the input gets .grad, steps within an L-inf ball and returns the
adversarial images detached. The forward then classifies those returned images with the
classifier's weights attached, so the classifier trains and its weights change.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RobustClassifier(nn.Module):
    def __init__(self, classes=5, eps=0.1, alpha=0.04, iters=3):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(8, classes)
        self.eps, self.alpha, self.iters = eps, alpha, iters

    def logits(self, img):
        return self.fc(self.features(img).flatten(1))

    def forward(self, img, labels=None):
        def perturb(clean):
            adv = clean.detach().clone()
            for _ in range(self.iters):
                adv.requires_grad_(True)
                F.cross_entropy(self.logits(adv), labels).backward(inputs=[adv])
                step = adv + self.alpha * adv.grad.sign()
                adv = (clean + (step - clean).clamp(-self.eps, self.eps)).clamp(0, 1).detach()
            return adv.detach()

        if self.training and labels is not None:
            img = perturb(img)
        return self.logits(img)


def main():
    torch.manual_seed(0)
    images = torch.rand(16, 3, 10, 10)
    labels = torch.randint(0, 5, (16,))
    model = RobustClassifier()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    before = model.features[0].weight.clone()
    model.train()
    for _ in range(3):
        loss = F.cross_entropy(model(images, labels), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert model.features[0].weight.grad is not None
    assert not torch.equal(model.features[0].weight, before)
    print("ok: classifier trained on adversarial examples")


if __name__ == "__main__":
    main()
