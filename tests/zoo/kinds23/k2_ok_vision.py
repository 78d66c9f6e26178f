"""
expect: none
dynamic: dismiss
source: kinds check 23, kind 2 (written for this check)

BYOL-style self-supervised image pretraining. The target encoder is a deepcopy of the online encoder kept in an
EMA helper class whose update() method writes p_t.data.mul_(decay).add_(...); its projections are .detach()ed
and used as regression targets for the online predictor. The online encoder, projector and predictor are in the
optimizer and all get nonzero gradients (asserted); the averaged target gets none and moves only by the EMA.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class EMA:
    def __init__(self, model, decay=0.99):
        self.shadow = copy.deepcopy(model)
        self.decay = decay

    def update(self, model):
        for p_t, p_o in zip(self.shadow.parameters(), model.parameters()):
            p_t.data.mul_(self.decay).add_(p_o.data, alpha=1 - self.decay)

    def __call__(self, x):
        return self.shadow(x)


def conv_encoder():
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                         nn.Flatten(), nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 16))


def augment(img):
    flip = img.flip(-1) if torch.rand(()) < 0.5 else img
    return flip + 0.1 * torch.randn_like(flip)


def regression_loss(p, z):
    return 2 - 2 * F.cosine_similarity(p, z, dim=-1).mean()


torch.manual_seed(4)
online = conv_encoder()
predictor = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 16))
ema = EMA(online)
opt = torch.optim.SGD(list(online.parameters()) + list(predictor.parameters()), lr=0.05, momentum=0.9)

trained = list(online.parameters()) + list(predictor.parameters())
shadow_start = [p.detach().clone() for p in ema.shadow.parameters()]
for _ in range(5):
    images = torch.randn(16, 3, 12, 12)
    v1, v2 = augment(images), augment(images)
    t1, t2 = ema(v1).detach(), ema(v2).detach()
    loss = regression_loss(predictor(online(v1)), t2) + regression_loss(predictor(online(v2)), t1)
    opt.zero_grad()
    loss.backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in trained)
    opt.step()
    ema.update(online)

assert all(p.grad is None for p in ema.shadow.parameters())
assert any(not torch.equal(a, b) for a, b in zip(shadow_start, ema.shadow.parameters()))
print("ok: online branch trains, EMA target only averaged")
