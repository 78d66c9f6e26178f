"""
expect: GL003 main.py:46
dynamic: confirm
source: https://github.com/locuslab/convex_adversarial/issues/34

In a provable-robustness training repository, uncommenting the PGD evaluation inside
`evaluate_robust` crashed with "element 0 of tensors does not require grad": the evaluation
function turns gradients off at its top (torch.set_grad_enabled(False)), and the attack, which
calls loss.backward() on the input, runs inside that region. attacks.py holds the attack and
main.py a small trainer whose robust evaluation calls it with gradients disabled; the program
asserts the call fails for that reason and that the same attack works once gradients are
re-enabled around it (and actually raises the error rate).
"""
import torch
import torch.nn as nn

from attacks import _pgd

torch.manual_seed(0)
torch.set_num_threads(1)


def make_data(n=256):
    X = torch.randn(n, 20)
    y = (X[:, 0] + 0.5 * X[:, 1] > 0).long()
    return [(X[i:i + 64], y[i:i + 64]) for i in range(0, n, 64)]


def train(loader, model, opt, epochs=15):
    for _ in range(epochs):
        for X, y in loader:
            loss = nn.CrossEntropyLoss()(model(X), y)
            opt.zero_grad()
            loss.backward()
            opt.step()


def evaluate_robust(loader, model, epsilon, reenable=False):
    torch.set_grad_enabled(False)
    errs = pgd_errs = 0.0
    for X, y in loader:
        if reenable:
            with torch.enable_grad():
                err, pgd_err = _pgd(model, X, y, epsilon)
        else:
            err, pgd_err = _pgd(model, X, y, epsilon)
        errs += err.item()
        pgd_errs += pgd_err.item()
    torch.set_grad_enabled(True)
    return errs, pgd_errs


loader = make_data()
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2))
train(loader, model, torch.optim.Adam(model.parameters(), 1e-2))

try:
    evaluate_robust(loader, model, epsilon=0.3)
    raised = None
except RuntimeError as e:
    raised = str(e)
finally:
    torch.set_grad_enabled(True)
print("reported:", raised)
assert raised is not None and "does not require grad" in raised

err, pgd_err = evaluate_robust(loader, model, epsilon=0.3, reenable=True)
print(f"fixed: clean errors {err:.0f}, PGD errors {pgd_err:.0f}")
assert pgd_err > err
print("OK")
