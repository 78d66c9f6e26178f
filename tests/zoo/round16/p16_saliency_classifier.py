"""
expect: GL003 33
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/2512

In the thread on detach_() semantics a commenter computed xW = x @ W, took xW_detach =
xW.detach(), set xW_detach.requires_grad = True and continued with xW_detach @ W2 before
loss.backward(). This program rebuilds the pattern where it usually appears: a classifier that
re-leafs its intermediate features so it can read feature.grad for saliency logging during
training. The asserts show only the head learns: after backward the backbone weight's grad is
None and the optimizer leaves it unchanged, while the feature leaf and the head get gradients;
keeping the feature in the graph (retain_grad) trains the backbone too.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SaliencyClassifier(nn.Module):
    def __init__(self, d_in=8, d_feat=16, n_cls=3, expose_features=True):
        super().__init__()
        self.backbone = nn.Linear(d_in, d_feat)
        self.head = nn.Linear(d_feat, n_cls)
        self.expose_features = expose_features
        self.last_feature = None

    def forward(self, x):
        feat = torch.relu(self.backbone(x))
        if self.expose_features:
            feat = feat.detach()
            feat.requires_grad = True
        else:
            feat.retain_grad()
        self.last_feature = feat
        return self.head(feat)


def one_step(model):
    x, y = torch.randn(10, 8), torch.randint(0, 3, (10,))
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    b0 = model.backbone.weight.detach().clone()
    h0 = model.head.weight.detach().clone()
    opt.zero_grad()
    F.cross_entropy(model(x), y).backward()
    saliency = model.last_feature.grad.abs().mean(0)
    opt.step()
    return b0, h0, saliency


m = SaliencyClassifier()
b0, h0, sal = one_step(m)
assert sal.sum() > 0
assert m.backbone.weight.grad is None
assert torch.equal(b0, m.backbone.weight)
assert not torch.equal(h0, m.head.weight)

m2 = SaliencyClassifier(expose_features=False)
b0b, _, _ = one_step(m2)
assert not torch.equal(b0b, m2.backbone.weight)
print("ok: re-leafed features cut the backbone out of training")
