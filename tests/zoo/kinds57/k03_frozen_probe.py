"""
expect: none
dynamic: dismiss
source: none, invented

Linear evaluation of a "pretrained" convolutional trunk: `ProbedBackbone.trunk_features` is decorated with
`@torch.no_grad()` and the class's own `forward` calls it before a trainable linear head, so the trunk is
frozen by construction (its parameters are also set to `requires_grad=False` and the optimizer only gets
parameters that still require grad). The trainer class calls `self.model(images)`. No part that is meant
to learn is hidden from autograd. The asserts show the head's weights getting gradients and moving,
accuracy rising, and the trunk staying bit-for-bit identical as intended.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class ProbedBackbone(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2),
            nn.Flatten(),
        )
        for p in self.trunk.parameters():
            p.requires_grad = False
        self.head = nn.Linear(64, n_classes)

    @torch.no_grad()
    def trunk_features(self, images):
        self.trunk.eval()
        return self.trunk(images)

    def forward(self, images):
        return self.head(self.trunk_features(images))


class ProbeTrainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        params = [p for p in model.parameters() if p.requires_grad]
        self.opt = torch.optim.SGD(params, lr=lr, momentum=0.9)

    def step(self, images, labels):
        logits = self.model(images)
        loss = F.cross_entropy(logits, labels)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    @torch.no_grad()
    def accuracy(self, images, labels):
        return (self.model(images).argmax(-1) == labels).float().mean().item()


def make_shapes(n=300):
    labels = torch.randint(0, 3, (n,))
    imgs = 0.2 * torch.randn(n, 1, 12, 12)
    imgs[labels == 0, :, :6, :] += 1.5
    imgs[labels == 1, :, 6:, :] += 1.5
    imgs[labels == 2, :, :, :6] -= 1.5
    return imgs, labels


if __name__ == "__main__":
    model = ProbedBackbone()
    trainer = ProbeTrainer(model)
    imgs, labels = make_shapes()
    trunk0 = [p.clone() for p in model.trunk.parameters()]
    head0 = model.head.weight.detach().clone()
    acc0 = trainer.accuracy(imgs, labels)
    for epoch in range(15):
        for i in range(0, 300, 50):
            loss = trainer.step(imgs[i:i + 50], labels[i:i + 50])
    acc = trainer.accuracy(imgs, labels)
    assert model.head.weight.grad is not None and model.head.weight.grad.abs().sum() > 0
    assert not torch.equal(model.head.weight, head0)
    assert all(torch.equal(a, b) for a, b in zip(trunk0, model.trunk.parameters()))
    assert acc > acc0 and acc > 0.8, (acc0, acc)
    print(f"probe accuracy {acc0:.2f} -> {acc:.2f}, trunk unchanged")
