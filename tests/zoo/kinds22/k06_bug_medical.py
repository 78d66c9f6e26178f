"""
expect: GL003 31
dynamic: confirm
source: kinds check 22, kind 6 (written for this check)

A robustness evaluation for a lesion classifier is wrapped by a project decorator factory
that applies torch.inference_mode; the FGSM attack it runs inside `with torch.enable_grad()`
calls torch.autograd.grad, which raises because enable_grad does not lift inference mode.
The asserts prove the raise, and that the same body runs fine undecorated.
"""
import functools
import torch
import torch.nn as nn
import torch.nn.functional as F


def evaluation(tag):
    def decorate(fn):
        wrapped = torch.inference_mode()(fn)
        return functools.wraps(fn)(lambda *a, **k: wrapped(*a, **k))
    return decorate


def fgsm(model, scans, labels, eps=0.03):
    scans = scans.clone().requires_grad_(True)
    loss = F.cross_entropy(model(scans), labels)
    (g,) = torch.autograd.grad(loss, scans)
    return (scans + eps * g.sign()).clamp(0, 1).detach(), g


@evaluation("robust")
def robust_accuracy(model, scans, labels):
    with torch.enable_grad():
        adv, g = fgsm(model, scans, labels)
    return (model(adv).argmax(1) == labels).float().mean(), g


torch.manual_seed(11)
clf = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 14 * 14, 2))
scans, labels = torch.rand(4, 1, 16, 16), torch.tensor([0, 1, 0, 1])
try:
    robust_accuracy(clf, scans, labels)
    raise AssertionError("expected inference mode to break the attack")
except RuntimeError as err:
    assert "does not require grad" in str(err), err
acc, g = robust_accuracy.__wrapped__(clf, scans, labels)
assert g.abs().sum() > 0
print("ok: enable_grad cannot lift inference_mode")
