"""
expect: none
dynamic: dismiss
source: https://github.com/ylsung/pytorch-adversarial-training/issues/3

Adversarial training with an iterative signed-gradient attack. The attack module marks
the input as requiring grad, takes torch.autograd.grad of the loss with respect to the
input only, edits the input through .data, projects it back into the epsilon ball and
clamps it in place; the trainer then feeds the adversarial batch to the model and steps
the optimizer. The reporter worried that opt.step() would also apply the gradients
computed inside the attack; it does not, because autograd.grad with respect to the input
never writes parameter .grad fields, and the .data edits and in-place clamps touch only
the attack's own input tensor, whose gradient nobody uses. The asserts check that the
attack leaves every parameter's .grad empty, that the gradients of the training step equal
those of the same loss on a detached copy of the adversarial batch, that the attack raises
the loss, and that adversarial training lowers the loss on fresh attacks.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from attack import FastGradientSignUntargeted

torch.manual_seed(0)
torch.set_num_threads(1)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, 4))

    def forward(self, x, _eval=False):
        self.eval() if _eval else self.train()
        return self.body(x)


class Trainer:
    def __init__(self, attack):
        self.attack = attack

    def train(self, model, batches, epochs):
        opt = torch.optim.Adam(model.parameters(), 3e-3)
        for _ in range(epochs):
            for data, label in batches:
                adv_data = self.attack.perturb(data, label, "mean", True)
                output = model(adv_data, _eval=False)
                loss = F.cross_entropy(output, label)
                opt.zero_grad()
                loss.backward()
                opt.step()


w_true = torch.randn(20, 4)
batches = []
for _ in range(8):
    x = torch.rand(64, 20)
    batches.append((x, ((x - 0.5) @ w_true).argmax(1)))

model = Model()
attack = FastGradientSignUntargeted(model, epsilon=0.05, alpha=0.02, min_val=0, max_val=1, max_iters=5)

x, y = batches[0]
adv = attack.perturb(x, y, "mean", True)
assert all(p.grad is None for p in model.parameters()), "the attack must not touch parameter grads"
assert (adv - x).abs().max() <= 0.05 + 1e-6
with torch.no_grad():
    clean_loss = F.cross_entropy(model(x, _eval=True), y)
    adv_loss = F.cross_entropy(model(adv, _eval=True), y)
assert adv_loss > clean_loss

torch.manual_seed(1)
loss = F.cross_entropy(model(adv, _eval=True), y)
model.zero_grad()
loss.backward()
step_grads = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
F.cross_entropy(model(adv.detach(), _eval=True), y).backward()
assert all(torch.allclose(a, p.grad) for a, p in zip(step_grads, model.parameters()))
model.zero_grad()


def adversarial_loss():
    total = 0.0
    for xb, yb in batches:
        advb = attack.perturb(xb, yb, "mean", False)
        with torch.no_grad():
            total += F.cross_entropy(model(advb, _eval=True), yb).item()
    return total / len(batches)


before = adversarial_loss()
Trainer(attack).train(model, batches, epochs=40)
after = adversarial_loss()
assert after < 0.8 * before, (before, after)
print(f"adversarial loss {before:.3f} -> {after:.3f}")
