"""
expect: none
dynamic: dismiss
source: none, invented

Astronomy. The morphology training script imports ``photometric_features`` from
classify_survey.py, the team's inference script for survey cutouts. That script does
turn autograd off with ``torch.set_grad_enabled(False)``, but only under its
``if __name__ == "__main__":`` block, so importing it leaves grad mode alone and
the training script's ``train_step`` (which calls ``loss.backward()``) works when
``main`` calls it. The asserts check grad mode is still on after the import, that
every parameter receives a gradient, and that the classifier reaches high accuracy
on held-out synthetic galaxies (Sersic-like ellipticals, two-armed spirals, thin
edge-on discs).
"""
import math

import torch
import torch.nn.functional as F

from classify_survey import photometric_features
from model import MorphologyNet


def render_galaxies(n_per_class=120, size=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(size, dtype=torch.float32), torch.arange(size, dtype=torch.float32), indexing="ij")
    images, labels = [], []
    for label in range(3):
        for _ in range(n_per_class):
            cy, cx = (size / 2 + 1.5 * torch.randn(2, generator=g)).tolist()
            theta = float(torch.rand((), generator=g)) * math.pi
            dx, dy = xx - cx, yy - cy
            u = dx * math.cos(theta) + dy * math.sin(theta)
            v = -dx * math.sin(theta) + dy * math.cos(theta)
            if label == 0:  # elliptical: concentrated, mildly flattened
                q = 0.7 + 0.3 * float(torch.rand((), generator=g))
                r = torch.sqrt(u ** 2 + (v / q) ** 2)
                img = torch.exp(-7.67 * ((r / 5.0) ** 0.25 - 1))
            elif label == 1:  # spiral: exponential disc + two arms
                r = torch.sqrt(u ** 2 + v ** 2)
                phi = torch.atan2(v, u)
                arms = 1 + 0.8 * torch.cos(2 * (phi - 0.5 * torch.log(r + 1)))
                img = 30 * torch.exp(-r / 4.0) * arms
            else:  # edge-on: thin disc
                q = 0.12 + 0.08 * float(torch.rand((), generator=g))
                img = 30 * torch.exp(-torch.abs(u) / 5.0 - torch.abs(v) / (5.0 * q))
            img = img / img.max() + 0.02 * torch.randn(size, size, generator=g)
            images.append(img)
            labels.append(label)
    return torch.stack(images), torch.tensor(labels)


def train_step(model, optimizer, feats, labels):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(feats), labels)
    loss.backward()
    optimizer.step()
    return loss.item()


def main():
    torch.set_num_threads(1)
    assert torch.is_grad_enabled(), "importing the inference script must not touch grad mode"
    images, labels = render_galaxies()
    feats = photometric_features(images)
    feats = (feats - feats.mean(0)) / (feats.std(0) + 1e-6)
    perm = torch.randperm(len(labels), generator=torch.Generator().manual_seed(2))
    train, test = perm[:270], perm[270:]

    torch.manual_seed(0)
    model = MorphologyNet(n_features=feats.shape[1])
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    first = train_step(model, optimizer, feats[train], labels[train])
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
    for _ in range(200):
        last = train_step(model, optimizer, feats[train], labels[train])
    with torch.no_grad():
        acc = (model(feats[test]).argmax(-1) == labels[test]).float().mean().item()
    print("loss %.3f -> %.3f, held-out accuracy %.3f" % (first, last, acc))
    assert last < 0.3 * first and acc > 0.9, (first, last, acc)


if __name__ == "__main__":
    main()
