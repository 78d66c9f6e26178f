"""
expect: none
dynamic: dismiss
source: https://github.com/Unispac/Visual-Adversarial-Examples-Jailbreak-Large-Language-Models/issues/12

A reader asked why attack_constrained() updates the adversarial noise with
adv_noise.data = ... instead of adding tensors directly; the author answered it is deliberate,
so the update is not recorded as a graph node and later gradients land on the noise leaf. This
program rebuilds a constrained PGD attack on a frozen classifier: each step builds a new graph,
calls backward, then edits the noise leaf through .data and zeroes its grad. Nothing saved for a
pending backward is touched, so the attack works; the asserts show the noise gets a gradient every
step, stays inside the epsilon ball, and the target-class loss drops.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class FrozenClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5))
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, x):
        return self.net(x)


def attack_constrained(model, image, target_cls, epsilon=0.5, alpha=0.05, steps=40):
    adv_noise = torch.zeros_like(image).uniform_(-epsilon, epsilon).requires_grad_(True)
    losses = []
    for _ in range(steps):
        x_adv = (image + adv_noise).clamp(-3, 3)
        loss = F.cross_entropy(model(x_adv), target_cls)
        loss.backward()
        assert adv_noise.grad is not None and adv_noise.grad.abs().sum() > 0
        adv_noise.data = (adv_noise.data - alpha * adv_noise.grad.detach().sign()).clamp(-epsilon, epsilon)
        adv_noise.grad.zero_()
        losses.append(loss.item())
    return adv_noise.detach(), losses


model = FrozenClassifier()
image = torch.randn(1, 20)
target_cls = torch.tensor([3])
noise, losses = attack_constrained(model, image, target_cls)
assert noise.abs().max() <= 0.5 + 1e-6
assert losses[-1] < losses[0], losses
assert all(p.grad is None for p in model.parameters())
print("ok: .data update of the noise leaf is a correct PGD step; loss %.3f -> %.3f" % (losses[0], losses[-1]))
