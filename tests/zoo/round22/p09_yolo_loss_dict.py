"""
expect: GL004 67
dynamic: confirm
source: https://github.com/MultimediaTechLab/YOLO/pull/83

A YOLO training repository leaked 1-2 MB of CPU memory per batch: the epoch loop kept
`total_loss = defaultdict(lambda: torch.tensor(0.0))` and added every loss component,
still attached to its graph, with `total_loss[name] += loss_val * batch_size`; the
totals were only used for logging at the end of the epoch. The fix stores floats via
`.item()`. This program has a detector trainer whose loss returns a dict of box/cls/obj
terms. The asserts show the graph reachable from each logged total grows with every
batch of the epoch, while the `.item()` version keeps plain floats.
"""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)


def graph_size(t):
    if not isinstance(t, torch.Tensor) or t.grad_fn is None:
        return 0
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class TinyDetector(nn.Module):
    def __init__(self, n_cls=3):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.SiLU())
        self.head = nn.Conv2d(8, 4 + 1 + n_cls, 1)

    def forward(self, x):
        return self.head(self.backbone(x))


def yolo_loss(pred, target):
    box = F.smooth_l1_loss(pred[:, :4], target[:, :4])
    obj = F.binary_cross_entropy_with_logits(pred[:, 4], target[:, 4])
    cls = F.binary_cross_entropy_with_logits(pred[:, 5:], target[:, 5:])
    parts = {"box": box, "obj": obj, "cls": cls}
    return box + obj + cls, parts


class Trainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=1e-2)

    def train_one_epoch(self, loader, sizes):
        total_loss = defaultdict(lambda: torch.tensor(0.0))
        for images, targets in loader:
            loss, loss_dict = yolo_loss(self.model(images), targets)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            for name, loss_val in loss_dict.items():
                total_loss[name] += loss_val * images.shape[0]
            sizes.append(graph_size(total_loss["box"]))
        return {k: v / len(loader) for k, v in total_loss.items()}


class FixedTrainer(Trainer):
    def train_one_epoch(self, loader, sizes):
        total_loss = defaultdict(float)
        for images, targets in loader:
            loss, loss_dict = yolo_loss(self.model(images), targets)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            for name, loss_val in loss_dict.items():
                total_loss[name] += loss_val.item() * images.shape[0]
            sizes.append(graph_size(total_loss["box"]))
        return {k: v / len(loader) for k, v in total_loss.items()}


def loader(n=5):
    return [(torch.rand(2, 3, 8, 8), torch.rand(2, 8, 4, 4)) for _ in range(n)]


torch.manual_seed(0)
sizes = []
logged = Trainer(TinyDetector()).train_one_epoch(loader(), sizes)
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
assert logged["box"].requires_grad

torch.manual_seed(0)
sizes = []
logged = FixedTrainer(TinyDetector()).train_one_epoch(loader(), sizes)
assert sizes == [0] * 5 and isinstance(logged["box"], float)
print("p09 ok: loss-dict totals keep each batch's graph alive through the epoch")
