"""
expect: GL003 41
dynamic: confirm
source: kind C

A robustness benchmark for an image classifier runs a PGD attack inside
``robust_accuracy``, which is decorated with ``@torch.inference_mode()``.  The
attack step itself is careful: it re-enables autograd with
``torch.enable_grad()`` before calling ``torch.autograd.grad``.  But
enable_grad cannot undo inference mode (nothing is recorded and inputs are
inference tensors), so the gradient call raises "element 0 of tensors does
not require grad".
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_classifier():
    return nn.Sequential(nn.Conv2d(1, 6, 3, padding=1), nn.ReLU(),
                         nn.AdaptiveAvgPool2d(4), nn.Flatten(),
                         nn.Linear(6 * 16, 10))


def pgd_step(model, x_adv, x_clean, y, eps, alpha):
    with torch.enable_grad():
        x_adv = x_adv.clone().requires_grad_(True)
        loss = F.cross_entropy(model(x_adv), y)
        (grad,) = torch.autograd.grad(loss, x_adv)
    x_adv = x_adv.detach() + alpha * grad.sign()
    return torch.min(torch.max(x_adv, x_clean - eps), x_clean + eps).clamp(0, 1)


def pgd_attack(model, x, y, eps=0.1, alpha=0.03, steps=3):
    x_adv = x.clone()
    for _ in range(steps):
        x_adv = pgd_step(model, x_adv, x, y, eps, alpha)
    return x_adv


@torch.inference_mode()
def robust_accuracy(model, x, y):
    x_adv = pgd_attack(model, x, y)
    return (model(x_adv).argmax(-1) == y).float().mean().item()


def main():
    torch.manual_seed(7)
    model = make_classifier().eval()
    x = torch.rand(8, 1, 12, 12)
    y = torch.randint(0, 10, (8,))
    try:
        robust_accuracy(model, x, y)
    except RuntimeError as e:
        assert "element 0 of tensors does not require grad" in str(e), e
        print("attack failed inside inference_mode as expected")
    else:
        raise AssertionError("expected the attack to fail")


if __name__ == "__main__":
    main()
