"""
expect: GL001 iqa_metric.py:37
dynamic: confirm
source: https://github.com/chaofengc/IQA-PyTorch/issues/76

The report is about using a feature-based full-reference IQA metric as a loss for an image restoration
network. The metric collected its backbone features through forward hooks inside helper methods that were
decorated with @torch.no_grad() and were called once on the concatenated distorted and reference batch. The
regression head after the features still had trainable parameters, so loss.backward() ran without any
error, but everything upstream of the hooked features was cut from the record and the restoration network
that produced the distorted image received no gradient at all; the fix removed the decorator. Here
iqa_metric.py rebuilds that metric (frozen hooked backbone, trainable head) and main.py trains a tiny
enhancer against it. The asserts show that with the no_grad feature helper the enhancer's gradients stay
None and its weights do not move, while with the recorded helper the enhancer gets gradients and the
predicted quality of its output rises.
"""
import torch
import torch.nn as nn

from iqa_metric import HookedFRMetric, HookedFRMetricDifferentiable

torch.manual_seed(0)
torch.set_num_threads(1)


def make_enhancer():
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1))


def train(metric_cls, steps=30):
    torch.manual_seed(1)
    metric = metric_cls().eval()
    enhancer = make_enhancer()
    before = [p.detach().clone() for p in enhancer.parameters()]
    opt = torch.optim.Adam(enhancer.parameters(), lr=1e-2)
    degraded = torch.rand(4, 3, 16, 16)
    clean = torch.rand(4, 3, 16, 16)
    scores, first_grad = [], None
    for step in range(steps):
        opt.zero_grad()
        restored = degraded + enhancer(degraded)
        quality = metric(restored, clean)
        loss = -quality.mean()
        loss.backward()
        if step == 0:
            first_grad = enhancer[0].weight.grad
        opt.step()
        scores.append(quality.mean().item())
    moved = any(not torch.equal(b, p) for b, p in zip(before, enhancer.parameters()))
    return first_grad, moved, scores


grad, moved, scores = train(HookedFRMetric)
assert grad is None, "enhancer should be cut off by the no_grad feature helper"
assert not moved
print("no_grad feature helper: enhancer grad None, weights unchanged")

grad, moved, scores = train(HookedFRMetricDifferentiable)
assert grad is not None and grad.abs().sum() > 0
assert moved and scores[-1] > scores[0]
print("recorded feature helper: quality %.4f -> %.4f" % (scores[0], scores[-1]))
