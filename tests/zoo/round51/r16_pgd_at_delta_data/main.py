"""
expect: none
dynamic: dismiss
source: https://github.com/P2333/Bag-of-Tricks-for-AT/issues/8

PGD adversarial training in the style of the "bag of tricks" / robust-overfitting code:
the attack (attack.py) calls loss.backward() on the model inside its loop, writes each
step into the perturbation through `delta.data[index] = ...`, and zeroes delta.grad by
hand. A reader asked whether the model's weight gradients, accumulated by those attack
backward passes, leak into the training update. They do not: the trainer calls
opt.zero_grad() right before the robust loss's backward, and the .data writes only touch a
leaf perturbation that no saved tensor depends on. The asserts check that the weight
gradients used for the step equal those of a clean recomputation of the robust loss, that
the perturbation stays inside the epsilon ball, and that robust training lowers the
adversarial loss.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from attack import attack_pgd


def make_model():
    return nn.Sequential(nn.Flatten(), nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 3))


def train_epoch(model, opt, batches, epsilon=0.1, alpha=0.03, iters=5):
    for X, y in batches:
        delta = attack_pgd(model, X, y, epsilon, alpha, iters)
        assert delta.abs().max() <= epsilon + 1e-6
        robust_out = model(torch.clamp(X + delta, 0.0, 1.0))
        robust_loss = F.cross_entropy(robust_out, y)
        opt.zero_grad()
        robust_loss.backward()
        step_grads = [p.grad.clone() for p in model.parameters()]
        opt.step()
        yield delta, X, y, step_grads


torch.manual_seed(0)
torch.set_num_threads(1)
centers = torch.rand(3, 1, 4, 4)
batches = []
for _ in range(8):
    y = torch.randint(0, 3, (16,))
    X = (centers[y] + 0.05 * torch.randn(16, 1, 4, 4)).clamp(0, 1)
    batches.append((X, y))

model = make_model()
opt = torch.optim.SGD(model.parameters(), lr=0.2)

# check the first update against a clean recomputation
snapshot = copy.deepcopy(model)
delta, X, y, step_grads = next(train_epoch(model, opt, batches[:1]))
clean_loss = F.cross_entropy(snapshot(torch.clamp(X + delta, 0.0, 1.0)), y)
clean_grads = torch.autograd.grad(clean_loss, list(snapshot.parameters()))
for a, b in zip(step_grads, clean_grads):
    assert torch.allclose(a, b, atol=1e-6)

def robust_loss_on(batches):
    total = 0.0
    for X, y in batches:
        delta = attack_pgd(model, X, y, 0.1, 0.03, 5)
        total += F.cross_entropy(model(torch.clamp(X + delta, 0, 1)), y).item()
    model.zero_grad()
    return total / len(batches)

before = robust_loss_on(batches)
for epoch in range(15):
    for _ in train_epoch(model, opt, batches):
        pass
after = robust_loss_on(batches)
assert after < before, (before, after)
print("robust loss %.3f -> %.3f" % (before, after))
