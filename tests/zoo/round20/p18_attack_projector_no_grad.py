"""
expect: none
dynamic: dismiss
source: https://github.com/IntelLabs/MART/pull/108

An adversarial-robustness toolkit optimises a perturbation tensor with an ordinary optimizer and,
after each step, projects it back into the allowed set. The PR replaced projectors that worked on
`tensor.data` with projectors whose __call__ is decorated with @torch.no_grad() and edits the
perturbation in place. Editing a leaf in place under no_grad between steps is safe: no saved
tensor of a live graph is touched, because every step runs a fresh forward. The program runs a
PGD-style attack with such a projector against a fixed classifier and asserts the perturbation
gets a gradient every step, stays inside the epsilon ball and the valid pixel range, and raises
the classifier's loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class LinfProjector:
    def __init__(self, eps):
        self.eps = eps

    @torch.no_grad()
    def __call__(self, perturbation, input):
        perturbation.clamp_(-self.eps, self.eps)
        # keep input + perturbation a valid image
        perturbation.copy_((input + perturbation).clamp_(0, 1) - input)


class Adversary:
    def __init__(self, model, eps=0.03, lr=0.01, steps=10):
        self.model, self.steps = model, steps
        self.projector = LinfProjector(eps)
        self.lr = lr

    def __call__(self, input, target):
        perturbation = torch.zeros_like(input, requires_grad=True)
        opt = torch.optim.SGD([perturbation], lr=self.lr)
        losses = []
        for _ in range(self.steps):
            loss = F.cross_entropy(self.model(input + perturbation), target)
            opt.zero_grad()
            (-loss).backward()            # gradient ascent on the model's loss
            assert perturbation.grad is not None and perturbation.grad.abs().sum() > 0
            perturbation.grad.sign_()     # L-inf steepest ascent
            opt.step()
            self.projector(perturbation, input)
            losses.append(loss.item())
        return (input + perturbation).detach(), losses, perturbation


model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 32), nn.ReLU(), nn.Linear(32, 5))
for p in model.parameters():
    p.requires_grad_(False)
images = torch.rand(16, 3, 8, 8)
labels = model(images).argmax(1)

adv, losses, delta = Adversary(model, eps=0.1, lr=0.02, steps=15)(images, labels)
clean_loss = F.cross_entropy(model(images), labels).item()
adv_loss = F.cross_entropy(model(adv), labels).item()
print(f"loss clean {clean_loss:.3f} -> adversarial {adv_loss:.3f}")
assert delta.abs().max() <= 0.1 + 1e-6
assert adv.min() >= 0 and adv.max() <= 1
assert adv_loss > clean_loss + 0.1
print("OK")
