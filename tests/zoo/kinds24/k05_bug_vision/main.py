"""
expect: GL003 evaluator.py:15
dynamic: confirm
source: kinds check 24, kind 5 (written for this check)

`RobustnessEvaluator.evaluate` (evaluator.py) is decorated with `@torch.no_grad()` and calls
the model's `fgsm` method, which differentiates the loss with respect to the input; under
no_grad the loss has no graph, so the run raises. The assert shows the RuntimeError; a
separate evaluator that makes the attack under `torch.enable_grad()` runs and perturbs.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from evaluator import RobustnessEvaluator

torch.set_num_threads(1)
torch.manual_seed(0)


class TinyConvNet(nn.Module):
    def __init__(self, n_cls=4):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2))
        self.fc = nn.Linear(32, n_cls)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))

    def fgsm(self, images, labels, eps):
        x = images.clone().requires_grad_(True)
        loss = F.cross_entropy(self(x), labels)
        (grad,) = torch.autograd.grad(loss, x)
        return (x + eps * grad.sign()).clamp(0, 1).detach()


class GradEnabledEvaluator:
    def __init__(self, model, eps):
        self.model, self.eps = model, eps

    @torch.no_grad()
    def evaluate(self, batches):
        correct = total = 0
        for images, labels in batches:
            with torch.enable_grad():
                adv = self.model.fgsm(images, labels, self.eps)
            assert not torch.equal(adv, images)
            correct += (self.model(adv).argmax(1) == labels).sum().item()
            total += labels.numel()
        return correct / total


model = TinyConvNet()
batches = [(torch.rand(4, 3, 8, 8), torch.randint(0, 4, (4,))) for _ in range(2)]
try:
    RobustnessEvaluator(model, eps=0.03).evaluate(batches)
except RuntimeError as err:
    assert "does not require grad" in str(err), err
else:
    raise AssertionError("the attack under no_grad should have raised")

acc = GradEnabledEvaluator(model, eps=0.03).evaluate(batches)
assert 0.0 <= acc <= 1.0
print("bug confirmed: fgsm called inside a no_grad evaluation raises")
