"""expect: GL003 29
dynamic: error
source: https://github.com/BorealisAI/advertorch/issues/79

An FGSM attack class calls backward on the classification loss to get the input gradient. The robustness evaluation wraps its loop in `with torch.no_grad():` and calls the attack from inside it, so no graph is recorded from the adversarial input to the loss and the attack's backward raises "element 0 of tensors does not require grad" (the linked report; the maintainer's fix was to remove the no_grad). The cut is the no_grad region around the call; the backward is in another function. Keyed GL001 by its writer; a function that backpropagates, called inside a no_grad region elsewhere, is GL003's (issue 13).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FGSM:
    def __init__(self, model, eps=0.05):
        self.model = model
        self.eps = eps

    def perturb(self, x, y):
        x_adv = x.clone().requires_grad_(True)
        loss = F.cross_entropy(self.model(x_adv), y)
        loss.backward()
        return (x_adv + self.eps * x_adv.grad.sign()).clamp(0, 1).detach()


def robust_accuracy(model, attack, batches):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in batches:
            x_adv = attack.perturb(x, y)
            correct += (model(x_adv).argmax(1) == y).sum().item()
            total += y.numel()
    return correct / total


torch.manual_seed(0)
model = nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10))
batches = [(torch.rand(8, 1, 8, 8), torch.randint(0, 10, (8,))) for _ in range(2)]
print("robust accuracy:", robust_accuracy(model, FGSM(model), batches))
