"""
expect: none
dynamic: dismiss
source: kind 5

An FGSM attacker class is handed an image classifier. perturb() sets
image.requires_grad = True on the image it is given, takes the gradient of the
loss with respect to that image only (torch.autograd.grad), moves the image
along the sign of the gradient and returns it .detach()ed. The attacker is
not meant to train the classifier; a separate adversarial-training loop does.
The asserts show the adversarial images differ from the clean ones, the
attack leaves no .grad on the classifier, and adversarial training works.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FGSMAttack:
    def __init__(self, classifier, eps=0.1):
        self.classifier = classifier
        self.eps = eps

    def perturb(self, image, label):
        image.requires_grad = True
        loss = F.cross_entropy(self.classifier(image), label)
        (grad,) = torch.autograd.grad(loss, image)
        adv = image + self.eps * grad.sign()
        return adv.clamp(0.0, 1.0).detach()


class SmallCNN(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.fc = nn.Linear(8 * 4 * 4, n_classes)

    def forward(self, x):
        h = F.max_pool2d(F.relu(self.conv(x)), 2)
        return self.fc(h.flatten(1))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SmallCNN()
    attack = FGSMAttack(model, eps=0.05)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    protos = torch.rand(3, 1, 8, 8)

    labels = torch.randint(0, 3, (16,))
    images = (protos[labels] + 0.1 * torch.randn(16, 1, 8, 8)).clamp(0, 1)
    adv = attack.perturb(images, labels)
    assert not adv.requires_grad and not torch.equal(adv, images.detach())
    assert all(p.grad is None for p in model.parameters())

    conv0 = model.conv.weight.detach().clone()
    losses = []
    for _ in range(150):
        labels = torch.randint(0, 3, (32,))
        images = (protos[labels] + 0.1 * torch.randn(32, 1, 8, 8)).clamp(0, 1)
        adv = attack.perturb(images, labels)
        loss = F.cross_entropy(model(adv), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert not torch.equal(conv0, model.conv.weight.detach())
    assert sum(losses[-10:]) < 0.5 * sum(losses[:10]), (losses[:3], losses[-3:])
    print("ok: FGSM detaches only the image; adversarial training works")
