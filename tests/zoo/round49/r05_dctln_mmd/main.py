"""
expect: GL001 mmd.py:27
dynamic: confirm
source: https://github.com/ArthurWish/DCTLN-/issues/1

A deep convolutional transfer-learning network for bearing fault diagnosis aligns source and
target vibration features with three terms: source classification, an adversarial domain classifier
behind a gradient reversal layer, and a multi-kernel MMD between the two feature batches. The MMD
module combines the kernel blocks inside torch.no_grad() (the issue asks why), so the MMD value
enters the total loss as a constant: the feature extractor, which the optimizer holds and the MMD
term is meant to train, receives nothing from it. The kernel bandwidth is taken from .data on
purpose (a heuristic constant) and is kept in both versions. The asserts show that the MMD term has
no history, that the feature-extractor gradient of the total loss equals that of the loss without
MMD, and that with the kernel blocks combined outside no_grad the MMD term does reach the extractor
and lowers the feature discrepancy over a few steps.
"""
import torch
import torch.nn as nn

from mmd import MMDLoss
from nets import ConditionClassifier, DomainClassifier, FeatureExtractor

torch.manual_seed(0)
torch.set_num_threads(1)


def signals(n, shift):
    t = torch.linspace(0, 1, 128)
    freq = torch.randint(2, 6, (n, 1)).float()
    x = torch.sin(2 * torch.pi * freq * t) + shift + 0.3 * torch.randn(n, 128)
    return x.unsqueeze(1), (freq.squeeze(1) - 2).long()


def build(keep_graph):
    torch.manual_seed(1)
    return FeatureExtractor(), ConditionClassifier(), DomainClassifier(), MMDLoss(keep_graph=keep_graph)


def losses(parts, xs, ys, xt):
    extractor, classifier, discriminator, mmd = parts
    fs, ft = extractor(xs), extractor(xt)
    ce = nn.functional.cross_entropy(classifier(fs), ys)
    ds, dt = discriminator(fs), discriminator(ft)
    adv = nn.functional.binary_cross_entropy_with_logits(ds, torch.ones_like(ds)) + \
        nn.functional.binary_cross_entropy_with_logits(dt, torch.zeros_like(dt))
    return ce, adv, mmd(fs, ft)


def extractor_grads(extractor, loss):
    g = torch.autograd.grad(loss, list(extractor.parameters()), retain_graph=True, allow_unused=True)
    return [torch.zeros_like(p) if x is None else x for p, x in zip(extractor.parameters(), g)]


xs, ys = signals(32, shift=0.0)
xt, _ = signals(32, shift=0.8)

for keep_graph in (False, True):
    parts = build(keep_graph)
    extractor = parts[0]
    ce, adv, mmd_val = losses(parts, xs, ys, xt)
    same = all(torch.allclose(a, b) for a, b in zip(extractor_grads(extractor, ce + adv + mmd_val),
                                                     extractor_grads(extractor, ce + adv)))
    params = [p for m in parts[:3] for p in m.parameters()]
    opt = torch.optim.SGD(params, lr=0.05, momentum=0.9)
    mmd_ref = MMDLoss(keep_graph=True)
    start = mmd_ref(extractor(xs), extractor(xt)).item()
    for _ in range(30):
        ce, adv, mmd_val = losses(parts, xs, ys, xt)
        opt.zero_grad()
        (ce + adv + 5.0 * mmd_val).backward()
        opt.step()
    end = mmd_ref(extractor(xs), extractor(xt)).item()
    print(f"MMD combined {'outside' if keep_graph else 'inside '} no_grad: mmd has history = "
          f"{mmd_val.requires_grad}, extractor grad unchanged by MMD = {same}, MMD {start:.4f} -> {end:.4f}")
    if keep_graph:
        assert mmd_val.requires_grad and not same
        fixed_end = end
    else:
        assert not mmd_val.requires_grad and same
        buggy_end = end

assert fixed_end < buggy_end
