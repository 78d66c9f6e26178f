"""
expect: none
dynamic: dismiss
source: https://github.com/jritchie31/Semi-Supervised-Semantic-Segmentation-with-Pseudo-Labels-/blob/352ac6414b21b4c7fcb176cec1c908e3c83c27f3/train_semi.py

This U2PL-style semi-supervised segmentation script trains a student on labeled images plus
pseudo-labels produced by a mean teacher. Several lines look like autograd mistakes: the teacher's
parameters have requires_grad switched off and it is run under torch.no_grad(), its upsampled
prediction is passed as `.detach()` into the unsupervised loss, the teacher is updated by
assigning `t.data = ema * t.data + (1 - ema) * s.data` under no_grad, and right before backward
there are guards `if not sup_loss.requires_grad: sup_loss.requires_grad_(True)` (same for
unsup_loss). None of them breaks training: the teacher is meant to be a gradient-free moving
average, the pseudo-label target is meant to be a constant, and the guards never fire because
both losses are computed from the student's output (during the supervised-only warm-up the
unsupervised loss is `0 * pred.sum()`, which still has a history). This reduction trains a tiny
segmentation CNN on random 8x8 blob images; the asserts check that the guards never trigger, that
the teacher never gets a gradient, that the unsupervised loss alone gives the student a non-zero
gradient, that one EMA step matches the formula exactly, and that the student's labeled loss falls.
"""
import copy

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


def make_images(n):
    """Three classes: background, bright blob, dark blob. Labels are per pixel."""
    x = 0.3 * torch.randn(n, 1, 8, 8)
    y = torch.zeros(n, 8, 8, dtype=torch.long)
    for i in range(n):
        r, c = torch.randint(0, 5, (2,)).tolist()
        cls = 1 + (i % 2)
        x[i, 0, r:r + 3, c:c + 3] += 2.0 if cls == 1 else -2.0
        y[i, r:r + 3, c:c + 3] = cls
    return x, y


class SegNet(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.cls = nn.Conv2d(16, classes, 1)

    def forward(self, x):
        return self.cls(self.body(x))


def unsupervised_loss(pred, target, drop_percent, pred_teacher):
    prob = torch.softmax(pred_teacher, dim=1)
    entropy = -(prob * torch.log(prob + 1e-10)).sum(dim=1)
    thresh = torch.quantile(entropy.flatten(), drop_percent / 100.0)
    keep = entropy <= thresh
    target = target.clone()
    target[~keep] = 255
    return F.cross_entropy(pred, target, ignore_index=255)


def main():
    x_l, y_l = make_images(16)
    x_u, y_u = make_images(32)
    model = SegNet()
    model_teacher = copy.deepcopy(model)
    for p in model_teacher.parameters():
        p.requires_grad = False
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

    ema_decay_origin, sup_only_epoch, epochs, iters = 0.99, 1, 4, 10
    guards_fired = 0
    with torch.no_grad():
        start_loss = F.cross_entropy(model(x_l), y_l).item()

    for epoch in range(epochs):
        for it in range(iters):
            i_iter = epoch * iters + it
            if epoch < sup_only_epoch:
                pred_l = model(x_l)
                sup_loss = F.cross_entropy(pred_l, y_l)
                unsup_loss = 0 * pred_l.sum()
            else:
                if epoch == sup_only_epoch and it == 0:
                    with torch.no_grad():  # start the teacher from the warmed-up student
                        for t_params, s_params in zip(model_teacher.parameters(), model.parameters()):
                            t_params.data = s_params.data
                with torch.no_grad():
                    model_teacher.eval()
                    pred_u_teacher = model_teacher(x_u)
                    label_u = pred_u_teacher.argmax(dim=1)
                pred_all = model(torch.cat([x_l, x_u]))
                pred_l, pred_u = pred_all[:len(x_l)], pred_all[len(x_l):]
                sup_loss = F.cross_entropy(pred_l, y_l)
                drop_percent = 80 + 20 * epoch / epochs
                unsup_loss = unsupervised_loss(pred_u, label_u.clone(), drop_percent, pred_u_teacher.detach())

                if it == 0:  # the pseudo-label term on its own reaches the student
                    g = torch.autograd.grad(unsup_loss, model.cls.weight, retain_graph=True)[0]
                    assert g.abs().sum() > 0

            if not sup_loss.requires_grad:
                guards_fired += 1
                sup_loss.requires_grad_(True)
            if not unsup_loss.requires_grad:
                guards_fired += 1
                unsup_loss.requires_grad_(True)
            loss = sup_loss + unsup_loss

            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

            if epoch >= sup_only_epoch:
                with torch.no_grad():
                    ema_decay = min(1 - 1 / (i_iter - iters * sup_only_epoch + 1), ema_decay_origin)
                    old = model_teacher.cls.weight.clone()
                    for t_params, s_params in zip(model_teacher.parameters(), model.parameters()):
                        t_params.data = ema_decay * t_params.data + (1 - ema_decay) * s_params.data
                    expected = ema_decay * old + (1 - ema_decay) * model.cls.weight
                    assert torch.allclose(model_teacher.cls.weight, expected)

    assert guards_fired == 0
    assert all(p.grad is None and not p.requires_grad for p in model_teacher.parameters())
    with torch.no_grad():
        end_loss = F.cross_entropy(model(x_l), y_l).item()
        teacher_acc = (model_teacher(x_u).argmax(1) == y_u).float().mean().item()
    assert end_loss < 0.5 * start_loss, (start_loss, end_loss)
    assert teacher_acc > 0.8, teacher_acc
    print(f"student labeled loss {start_loss:.3f} -> {end_loss:.3f}; teacher pixel accuracy {teacher_acc:.2f}")


if __name__ == "__main__":
    main()
