"""
expect: GL003 42
dynamic: confirm
source: https://github.com/Sadcardation/ImageProtector/issues/1

The report: a visual attack on a frozen vision-language model fails with "element 0 of
tensors does not require grad" when it asks for the gradient of the loss with respect to
the de-normalised perturbation (the model itself is frozen with requires_grad_(False)).
Here the attacker's helper maps the perturbation to pixel space under no_grad, and the
"fix" turns requires_grad back on for that result. Backward now runs, but the gradient
stops at the new leaf: the optimised perturbation never gets a .grad, stays at zero, and
the adversarial image equals the clean one. The asserts show that, and that the same
attacker without the no_grad mapping moves the perturbation and lowers the target loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class VisualAttacker:
    def __init__(self, model, std, eps=0.1, lr=0.01, steps=20, map_without_grad=True):
        self.model = model.requires_grad_(False).eval()
        self.std, self.eps, self.lr, self.steps = std, eps, lr, steps
        self.map_without_grad = map_without_grad

    def _to_pixels(self, pert):
        if self.map_without_grad:
            with torch.no_grad():
                return (pert * self.std).clamp(-self.eps, self.eps)
        return (pert * self.std).clamp(-self.eps, self.eps)

    def attack(self, x, target):
        pert = torch.zeros_like(x, requires_grad=True)
        opt = torch.optim.Adam([pert], lr=self.lr)
        self.grads_seen = []
        for _ in range(self.steps):
            pert_denormal = self._to_pixels(pert)
            if not pert_denormal.requires_grad:
                pert_denormal.requires_grad_(True)
            loss = F.cross_entropy(self.model(x + pert_denormal), target)
            opt.zero_grad()
            loss.backward()
            self.grads_seen.append(pert.grad)
            opt.step()
        return (x + self._to_pixels(pert)).detach(), pert.detach()


model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4),
                      nn.Flatten(), nn.Linear(128, 5))
std = torch.tensor([0.23, 0.22, 0.25]).view(1, 3, 1, 1)
x = torch.rand(4, 3, 16, 16)
target = torch.full((4,), 2)
clean_loss = F.cross_entropy(model(x), target).item()

attacker = VisualAttacker(model, std)
adv, pert = attacker.attack(x, target)
assert all(g is None for g in attacker.grads_seen)
assert torch.count_nonzero(pert) == 0
assert torch.equal(adv, x)

fixed = VisualAttacker(model, std, map_without_grad=False)
adv_ok, pert_ok = fixed.attack(x, target)
assert torch.count_nonzero(pert_ok) > 0
assert F.cross_entropy(model(adv_ok), target).item() < clean_loss - 1e-3
print("no_grad pixel mapping + requires_grad_: perturbation never trained; fixed attack lowers loss")
