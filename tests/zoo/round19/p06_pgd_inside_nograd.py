"""
expect: GL003 58
dynamic: confirm
source: https://github.com/Trusted-AI/adversarial-robustness-toolbox/issues/498

In the report a PGD attack failed with "element 0 of tensors does not require grad and does not
have a grad_fn"; the cause, found in the thread, was that the attack was run inside the caller's
`with torch.no_grad():` block, and white-box attacks must backpropagate a loss to the input. This
program rebuilds an adversarial-training loop (a PGD helper class plus a trainer that crafts the
examples under no_grad "to save memory"): the helper's autograd.grad raises on the first batch
and the classifier is never trained on adversarial examples; crafting them outside no_grad
trains the model (its weights move and adversarial loss falls).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PGD:
    def __init__(self, model, eps=0.3, alpha=0.1, steps=3):
        self.model, self.eps, self.alpha, self.steps = model, eps, alpha, steps

    def generate(self, x, y):
        x_adv = x + torch.empty_like(x).uniform_(-self.eps, self.eps)
        for _ in range(self.steps):
            x_adv = x_adv.detach().requires_grad_(True)
            loss = F.cross_entropy(self.model(x_adv), y)
            grad, = torch.autograd.grad(loss, x_adv)
            x_adv = x_adv + self.alpha * grad.sign()
            x_adv = torch.min(torch.max(x_adv, x - self.eps), x + self.eps)
        return x_adv.detach()


class AdversarialTrainer:
    def __init__(self, model, craft_without_grad=True):
        self.model = model
        self.attack = PGD(model)
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1)
        self.craft_without_grad = craft_without_grad

    def train_step(self, x, y):
        self.model.eval()
        if self.craft_without_grad:
            x_adv = self._craft_quietly(x, y)
        else:
            x_adv = self.attack.generate(x, y)
        self.model.train()
        loss = F.cross_entropy(self.model(x_adv), y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    def _craft_quietly(self, x, y):
        with torch.no_grad():
            return self.attack.generate(x, y)


x = torch.randn(64, 10)
y = (x[:, 0] > 0).long()
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
w0 = model[0].weight.detach().clone()

trainer = AdversarialTrainer(model, craft_without_grad=True)
try:
    trainer.train_step(x, y)
    raise AssertionError("expected the attack to fail under no_grad")
except RuntimeError as e:
    assert "does not require grad" in str(e)
assert torch.equal(model[0].weight, w0)  # nothing was trained

fixed = AdversarialTrainer(model, craft_without_grad=False)
losses = [fixed.train_step(x, y) for _ in range(30)]
assert not torch.equal(model[0].weight, w0)
assert losses[-1] < losses[0]
print("p06 ok: PGD crafted inside the caller's no_grad cannot backpropagate")
