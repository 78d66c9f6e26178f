"""L-infinity PGD attack used to craft training examples for adversarial training."""
import torch
import torch.nn.functional as F


def attack_pgd(model, X, y, epsilon, alpha, attack_iters, lower=0.0, upper=1.0):
    delta = torch.zeros_like(X).uniform_(-epsilon, epsilon)
    delta = torch.max(torch.min(delta, upper - X), lower - X)
    delta.requires_grad = True
    for _ in range(attack_iters):
        output = model(X + delta)
        index = torch.where(output.max(1)[1] == y)[0]  # keep pushing only still-correct samples
        if len(index) == 0:
            break
        loss = F.cross_entropy(output, y)
        loss.backward()
        grad = delta.grad.detach()
        d = delta[index]
        g = grad[index]
        x = X[index]
        d = torch.clamp(d + alpha * torch.sign(g), min=-epsilon, max=epsilon)
        d = torch.max(torch.min(d, upper - x), lower - x)
        delta.data[index] = d
        delta.grad.zero_()
    return delta.detach()
