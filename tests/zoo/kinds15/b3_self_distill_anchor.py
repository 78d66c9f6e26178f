"""
expect: none
dynamic: dismiss
source: kind B

A self-distillation wrapper for a small conv classifier stores the network's predictions on clean
images on `self`, cut from the graph, as soft targets; its training method recomputes the network's
output on augmented images and matches it to the stored targets. The stored tensor is only a
constant target, the live path runs through the recomputed output, and the asserts show the
network's gradients are non-zero and its weights change.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5)


class SelfDistiller:
    def __init__(self):
        self.net = nn.Sequential(
            nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten(), nn.Linear(16, 3)
        )
        self.opt = torch.optim.SGD(self.net.parameters(), lr=0.5)
        self.soft_targets = None

    def snapshot(self, images, temperature=2.0):
        self.soft_targets = F.softmax(self.net(images) / temperature, dim=-1).detach()

    def train_step(self, images, temperature=2.0):
        augmented = images.flip(-1) + 0.05 * torch.randn_like(images)
        log_probs = F.log_softmax(self.net(augmented) / temperature, dim=-1)
        loss = F.kl_div(log_probs, self.soft_targets, reduction="batchmean")
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


images = torch.randn(6, 1, 8, 8)
distiller = SelfDistiller()
w0 = distiller.net[0].weight.detach().clone()
for _ in range(3):
    distiller.snapshot(images)
    distiller.train_step(images)
assert distiller.net[0].weight.grad is not None and distiller.net[0].weight.grad.abs().sum() > 0
assert not torch.equal(w0, distiller.net[0].weight.detach())
print("ok")
