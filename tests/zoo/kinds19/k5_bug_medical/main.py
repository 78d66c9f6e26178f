"""
expect: GL001 losses_base.py:17
dynamic: confirm
source: kinds check 19, kind 5 (written for this check)

`CEBrierLoss` adds a Brier calibration term to cross-entropy, with the probabilities
from `_probs()`, which it inherits from `CalibrationLossBase` in losses_base.py. That
base method reads `logits.data`, so the Brier term, which is about the model's own
prediction, is wholly cut and its weight does nothing. The asserts show the
classifier's gradient is identical for brier_weight 0 and 2, and differs once the
probabilities keep their graph.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from losses_base import CalibrationLossBase


class CEBrierLoss(CalibrationLossBase):
    def __init__(self, n_classes, brier_weight=1.0):
        super().__init__(n_classes, smoothing=0.05)
        self.brier_weight = brier_weight

    def forward(self, logits, y):
        ce = F.cross_entropy(logits, y, label_smoothing=self.smoothing)
        brier = (self._probs(logits) - self._one_hot(y)).pow(2).sum(-1).mean()
        return ce + self.brier_weight * brier


class LiveCEBrierLoss(CEBrierLoss):
    def _probs(self, logits):
        return logits.softmax(-1)


def lesion_net():
    return nn.Sequential(nn.Conv2d(1, 8, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(2),
                         nn.Flatten(), nn.Linear(32, 4))


def grads_for(net, crit, scans, y):
    net.zero_grad(set_to_none=True)
    crit(net(scans), y).backward()
    return [p.grad.clone() for p in net.parameters()]


if __name__ == "__main__":
    torch.manual_seed(12)
    net = lesion_net()
    scans, y = torch.randn(16, 1, 28, 28), torch.randint(0, 4, (16,))
    g0 = grads_for(net, CEBrierLoss(4, brier_weight=0.0), scans, y)
    g2 = grads_for(net, CEBrierLoss(4, brier_weight=2.0), scans, y)
    assert all(torch.equal(a, b) for a, b in zip(g0, g2)), "Brier weight must be inert"
    l0 = grads_for(net, LiveCEBrierLoss(4, brier_weight=0.0), scans, y)
    l2 = grads_for(net, LiveCEBrierLoss(4, brier_weight=2.0), scans, y)
    assert not all(torch.allclose(a, b) for a, b in zip(l0, l2)), "live Brier steers"
    print("k5_bug_medical: inherited _probs() cuts the Brier term")
