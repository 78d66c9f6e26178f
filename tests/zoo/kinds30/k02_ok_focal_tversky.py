"""
expect: none
dynamic: dismiss
source: kinds check 30, kind 1

Lesion segmentation loss = focal term + Tversky term, each its own submodule.
The Tversky submodule softmaxes the logits and mixes the live probabilities
with the one-hot masks, so both terms train the segmenter (look-alike of k01
without the detach).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FocalTerm(nn.Module):
    def __init__(self, gamma=2.0):
        super().__init__()
        self.gamma = gamma

    def forward(self, logits, labels):
        logp = F.log_softmax(logits, dim=1)
        logp_t = logp.gather(1, labels.unsqueeze(1)).squeeze(1)
        return (-(1 - logp_t.exp()) ** self.gamma * logp_t).mean()


class TverskyTerm(nn.Module):
    def __init__(self, n_classes, alpha=0.3, beta=0.7):
        super().__init__()
        self.n_classes, self.alpha, self.beta = n_classes, alpha, beta

    def forward(self, logits, labels):
        probs = F.softmax(logits, dim=1)
        onehot = F.one_hot(labels, self.n_classes).permute(0, 3, 1, 2).float()
        tp = (probs * onehot).sum((0, 2, 3))
        fp = (probs * (1 - onehot)).sum((0, 2, 3))
        fn = ((1 - probs) * onehot).sum((0, 2, 3))
        tversky = (tp + 1.0) / (tp + self.alpha * fp + self.beta * fn + 1.0)
        return (1 - tversky).mean()


class LesionLoss(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.focal = FocalTerm()
        self.tversky = TverskyTerm(n_classes)

    def forward(self, logits, labels, use_tversky=True):
        loss = self.focal(logits, labels)
        if use_tversky:
            loss = loss + self.tversky(logits, labels)
        return loss


torch.manual_seed(0)
n_classes = 3
seg = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, n_classes, 1))
crit = LesionLoss(n_classes)
x = torch.randn(2, 1, 16, 16)
y = torch.randint(0, n_classes, (2, 16, 16))


def grads(use_tversky):
    seg.zero_grad()
    loss = crit(seg(x), y, use_tversky)
    loss.backward()
    return loss.item(), [p.grad.clone() for p in seg.parameters()]


l_full, g_full = grads(True)
l_focal, g_focal = grads(False)
assert l_full != l_focal
assert not all(torch.equal(a, b) for a, b in zip(g_full, g_focal))  # Tversky adds gradient
print("Tversky term trains the segmenter", l_full, l_focal)
