"""
expect: GL003 55
dynamic: confirm
source: https://github.com/hushell/sib_meta_learn/issues/3

sib_meta_learn issue #3 ("How to train without loading pretraining model"): in SIB the feature
extractor runs inside torch.no_grad() because it is a frozen pretrained network; the maintainer
explained that to train it from scratch the no_grad block itself must be removed. This program
rebuilds an episodic few-shot learner that keeps the no_grad feature extraction but, to "make the
features trainable" for from-scratch training, flips requires_grad on the extracted support/query
features. Training runs and the classifier head keeps learning, but the
asserts show the backbone - which is in the optimizer - never receives a gradient or moves; with
the features computed under grad the backbone trains too.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvBackbone(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                 nn.Conv2d(16, dim, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))

    def forward(self, x):
        return self.net(x).flatten(1)


class ProtoHead(nn.Module):
    """Cosine prototype classifier with a learnable scale (stands in for SIB's inference net)."""

    def __init__(self, dim=32):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.scale = nn.Parameter(torch.tensor(5.0))

    def forward(self, f_support, y_support, f_query, n_way):
        z_s, z_q = F.normalize(self.proj(f_support), dim=1), F.normalize(self.proj(f_query), dim=1)
        protos = torch.stack([z_s[y_support == c].mean(0) for c in range(n_way)])
        return self.scale * z_q @ F.normalize(protos, dim=1).t()


class SIBLearner:
    def __init__(self, freeze_features=True):
        self.backbone, self.head = ConvBackbone(), ProtoHead()
        self.freeze_features = freeze_features
        params = list(self.backbone.parameters()) + list(self.head.parameters())
        self.opt = torch.optim.Adam(params, lr=3e-3)

    def episode_loss(self, xs, ys, xq, yq, n_way):
        if self.freeze_features:
            with torch.no_grad():
                f_s, f_q = self.backbone(xs), self.backbone(xq)
            f_s, f_q = f_s.requires_grad_(), f_q.requires_grad_()
        else:
            f_s, f_q = self.backbone(xs), self.backbone(xq)
        logits = self.head(f_s, ys, f_q, n_way)
        return F.cross_entropy(logits, yq)


def sample_episode(gen, n_way=4, shots=3, queries=4):
    templates = torch.randn(n_way, 1, 12, 12, generator=gen)
    def draw(k):
        y = torch.arange(n_way).repeat_interleave(k)
        return templates[y] + 0.5 * torch.randn(len(y), 1, 12, 12, generator=gen), y
    (xs, ys), (xq, yq) = draw(shots), draw(queries)
    return xs, ys, xq, yq, n_way


def meta_train(freeze_features, episodes=40):
    torch.manual_seed(0)
    learner = SIBLearner(freeze_features)
    gen = torch.Generator().manual_seed(3)
    w0 = learner.backbone.net[0].weight.detach().clone()
    h0 = learner.head.proj.weight.detach().clone()
    backbone_grad = False
    for _ in range(episodes):
        loss = learner.episode_loss(*sample_episode(gen))
        learner.opt.zero_grad()
        loss.backward()
        backbone_grad |= learner.backbone.net[0].weight.grad is not None
        learner.opt.step()
    return (backbone_grad, not torch.equal(w0, learner.backbone.net[0].weight),
            not torch.equal(h0, learner.head.proj.weight))


backbone_grad, moved, head_moved = meta_train(freeze_features=True)
assert not backbone_grad and not moved, "backbone trained through no_grad features?"
assert head_moved, "the head still trains, so the run looks healthy"
backbone_grad, moved, head_moved = meta_train(freeze_features=False)
assert backbone_grad and moved and head_moved
print("p08 ok: requires_grad_ on no_grad features leaves the from-scratch backbone untrained")
