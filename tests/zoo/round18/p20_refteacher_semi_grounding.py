"""
expect: none
dynamic: dismiss
source: https://github.com/Disguiser15/RefTeacher/issues/3

The question asked what `retain_graph=True` is for in RefTeacher's semi-supervised
referring-expression training loop (train_semi_refteacher.py). The loop is full of
look-alikes: the EMA teacher predicts pseudo boxes under `torch.no_grad()`, the boxes go
through numpy (`.cpu().numpy()`, label<->yolo box conversion, `torch.from_numpy`), the
teacher attention map is kept as `att.detach().clone()`, the student loss is backpropagated
with `loss.backward(retain_graph=True)` every iteration, and the teacher is updated from
the student's state_dict inside a `@torch.no_grad()` function. All of these are targets or
bookkeeping; nothing carries a graph across iterations, so the flag is merely wasteful.
This program rebuilds the loop with a tiny image+text grounding model; the asserts show the
graph reached by backward has the same size every iteration, the student trains, and the
teacher receives no gradient but follows the student through EMA.
"""
from collections import OrderedDict
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class GroundingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.img, self.txt = nn.Linear(20, 16), nn.Embedding(10, 16)
        self.att_head, self.box_head = nn.Linear(16, 4), nn.Linear(16, 5)

    def forward(self, image, ref):
        h = torch.tanh(self.img(image) + self.txt(ref).mean(1))
        return torch.sigmoid(self.box_head(h)), torch.softmax(self.att_head(h), -1)

    def loss(self, image, ref, box_target, att_target=None, weight=None):
        box, att = self(image, ref)
        l_box = F.l1_loss(box[:, :4], box_target, reduction="none").sum(1)
        l_box = (l_box * weight).mean() if weight is not None else l_box.mean()
        l_att = F.kl_div(att.log(), att_target, reduction="batchmean") if att_target is not None else 0.0
        return l_box + l_att


@torch.no_grad()
def _update_teacher_model(student, teacher, keep_rate=0.99):
    student_dict, new_teacher_dict = student.state_dict(), OrderedDict()
    for key, value in teacher.state_dict().items():
        new_teacher_dict[key] = student_dict[key] * (1 - keep_rate) + value * keep_rate
    teacher.load_state_dict(new_teacher_dict)


def flip_boxes_np(boxes):                             # label space <-> augmented view
    boxes = boxes.copy()
    boxes[:, 0] = 1.0 - boxes[:, 0]
    return boxes


def batches(b=16):
    img = torch.randn(b, 20)
    ref = torch.randint(0, 10, (b, 3))
    box = torch.sigmoid(img[:, :4])
    return img, ref, box, torch.flip(img, [0]), torch.randint(0, 10, (b, 3))


if __name__ == "__main__":
    student, teacher = GroundingNet(), GroundingNet()
    optimizer = torch.optim.Adam(student.parameters(), lr=1e-2)
    _update_teacher_model(student, teacher, keep_rate=0.0)
    t0, s0 = teacher.img.weight.detach().clone(), student.img.weight.detach().clone()
    sizes, sup = [], []
    for step in range(40):
        img, ref, box, img_u, ref_u = batches()
        teacher.eval()
        with torch.no_grad():
            pseudo_box, att = teacher(img_u, ref_u)
            weight = pseudo_box[:, 4]
            pseudo_np = flip_boxes_np(pseudo_box[:, :4].cpu().numpy())
            sized_pseudo_box = torch.from_numpy(flip_boxes_np(pseudo_np)).float()
            pseudo_att = att.detach().clone()
        loss_sup = student.loss(img, ref, box)
        loss_semi = student.loss(img_u, ref_u, sized_pseudo_box, pseudo_att, weight)
        loss = loss_sup + 0.5 * loss_semi
        sizes.append(graph_size(loss))
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()
        _update_teacher_model(student, teacher)
        sup.append(loss_sup.item())
    assert len(set(sizes)) == 1, sizes
    assert all(p.grad is None for p in teacher.parameters())
    assert not torch.equal(teacher.img.weight, t0) and not torch.equal(student.img.weight, s0)
    assert sum(sup[-5:]) < sum(sup[:5]), (sup[:5], sup[-5:])
    print(f"OK: constant graph ({sizes[0]} nodes); student loss {sup[0]:.3f} -> {sup[-1]:.3f}; teacher via EMA")
