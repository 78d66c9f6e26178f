"""
expect: GL001 34
dynamic: confirm
source: https://github.com/thuml/Transferable-Adversarial-Training/issues/1

The report asks why dloss_a is in the objective at all: the domain probabilities it is
computed from are detached first, so the term cannot influence backpropagation, and a
second user confirmed it had no impact on any weight. This program rebuilds a small
domain-adaptation step: a feature extractor, a classifier and a domain discriminator,
with an adversarial fooling term built from discriminator outputs that were detached.
The asserts show the fooling term has no grad_fn, and that the feature extractor's
gradient is identical whether the term is weighted 0 or 10 (it adds a number, no gradient),
while the same term built without the cut changes that gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class DomainAdapter(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 16))
        self.classifier = nn.Linear(16, 3)
        self.domain_head = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1))

    def losses(self, xs, ys, xt, cut=True):
        fs, ft = self.features(xs), self.features(xt)
        cls_loss = F.cross_entropy(self.classifier(fs), ys)
        target_prob = torch.sigmoid(self.domain_head(ft))
        if cut:
            fooling_prob = target_prob.detach()
        else:
            fooling_prob = target_prob
        fool_loss = F.binary_cross_entropy(fooling_prob, torch.ones_like(fooling_prob))
        return cls_loss, fool_loss


def feature_grad(model, weight, cut):
    model.zero_grad()
    cls_loss, fool_loss = model.losses(xs, ys, xt, cut=cut)
    (cls_loss + weight * fool_loss).backward()
    return torch.cat([p.grad.flatten() for p in model.features.parameters()])


model = DomainAdapter()
xs, ys = torch.randn(32, 10), torch.randint(0, 3, (32,))
xt = torch.randn(32, 10) + 1.0

_, fool = model.losses(xs, ys, xt, cut=True)
assert fool.grad_fn is None and not fool.requires_grad

g0 = feature_grad(model, 0.0, cut=True)
g10 = feature_grad(model, 10.0, cut=True)
assert torch.equal(g0, g10)
assert all(p.grad is None or p.grad.abs().sum() == 0 for p in model.domain_head.parameters())

g10_live = feature_grad(model, 10.0, cut=False)
assert not torch.allclose(g0, g10_live)
print("ok: fooling term built from detached probabilities never moves the feature extractor")
