"""
expect: none
dynamic: dismiss
source: https://github.com/Harry24k/adversarial-attacks-pytorch/issues/57

Adversarial training with a torchattacks-style PGD attack. The attack starts from
images.clone().detach(), switches requires_grad on for its own copy, takes the input gradient with
torch.autograd.grad and rebuilds the adversarial image from .detach() every step, and the classifier
is then trained on the returned adversarial batch. The issue asked whether the clone/detach is
wasteful; the maintainer's answer is that it keeps the attack's gradients away from the caller's
tensor. Nothing here is meant to train through the attack: the asserts check that the attack
raises the loss inside the eps ball, that the classifier's weights get gradients from the loss on
the adversarial batch and its robust loss falls, that the attack leaves no .grad on the weights,
and that a caller whose images require grad (for an input-gradient penalty) gets exactly its own
gradient, while an attack that works on the caller's tensor in place leaves its last gradient
mixed into images.grad.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class PGD:
    def __init__(self, model, eps=0.3, alpha=0.1, steps=5):
        self.model, self.eps, self.alpha, self.steps = model, eps, alpha, steps

    def __call__(self, images, labels):
        images = images.clone().detach()
        labels = labels.clone().detach()
        adv = images + torch.empty_like(images).uniform_(-self.eps, self.eps)
        adv = adv.detach()
        for _ in range(self.steps):
            adv.requires_grad = True
            cost = F.cross_entropy(self.model(adv), labels)
            grad = torch.autograd.grad(cost, adv)[0]
            adv = adv.detach() + self.alpha * grad.sign()
            delta = torch.clamp(adv - images, -self.eps, self.eps)
            adv = (images + delta).detach()
        return adv


class PGDOnCallerTensor(PGD):
    """Same attack without the copy: it backpropagates into the caller's tensor."""

    def __call__(self, images, labels):
        for _ in range(self.steps):
            cost = F.cross_entropy(self.model(images), labels)
            cost.backward()
        return (images + self.alpha * images.grad.sign()).detach()


def make_data(n=256):
    x = torch.randn(n, 10)
    y = (x[:, 0] + 0.5 * x[:, 1] > 0).long()
    return x, y


model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
atk = PGD(model)
x_all, y_all = make_data()

robust = []
for epoch in range(30):
    for i in range(0, 256, 64):
        x, y = x_all[i:i + 64], y_all[i:i + 64]
        adv = atk(x, y)
        assert (adv - x).abs().max() <= atk.eps + 1e-6
        assert all(p.grad is None or p.grad.abs().sum() == 0 for p in model.parameters())
        loss = F.cross_entropy(model(adv), y)
        opt.zero_grad()
        loss.backward()
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
        opt.step()
        opt.zero_grad(set_to_none=True)
    adv_all = atk(x_all, y_all)
    with torch.no_grad():
        robust.append(F.cross_entropy(model(adv_all), y_all).item())

with torch.no_grad():
    clean = F.cross_entropy(model(x_all), y_all).item()
assert robust[-1] > clean, "the attack increases the loss"
assert robust[-1] < 0.8 * robust[0], "adversarial training lowers the robust loss"

# caller whose images require grad: an input-gradient penalty next to the attack
x, y = x_all[:64].clone(), y_all[:64]
x.requires_grad = True
ref = torch.autograd.grad(F.cross_entropy(model(x), y), x)[0]

x.grad = None
_ = atk(x, y)
F.cross_entropy(model(x), y).backward()
assert torch.allclose(x.grad, ref), "the copying attack leaves the caller's gradient alone"

x.grad = None
model.zero_grad()
_ = PGDOnCallerTensor(model)(x, y)
F.cross_entropy(model(x), y).backward()
assert not torch.allclose(x.grad, ref)
print(f"robust loss {robust[0]:.3f} -> {robust[-1]:.3f} (clean {clean:.3f}); caller's gradient intact")
