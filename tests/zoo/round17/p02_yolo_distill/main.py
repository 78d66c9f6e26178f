"""
expect: GL001 distiller.py:33
dynamic: confirm
source: https://github.com/Tencent/YOLO-Master/pull/240

YOLO-Master PR "fix(lora): preserve hierarchical distillation gradients": its
compute_hierarchical_distillation_loss() cleared the feature-hook caches and re-ran BOTH teacher
and student inside torch.no_grad(), so the student features captured by the hooks were detached
and the hierarchical term could never update the student (only the 1x1 adaptors trained). This
program rebuilds a tiny two-level detector backbone pair and a hook-based distiller (distiller.py)
with that no_grad block, runs a feature-mimic warm-up driven by the distillation loss alone, and
asserts the student backbone gets grad None and stays unchanged while the adaptors move; the fixed
distiller (student forward with grad, teacher still under no_grad) updates the student.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from distiller import HierarchicalDistiller


class TinyBackbone(nn.Module):
    def __init__(self, c1, c2):
        super().__init__()
        self.stage1 = nn.Sequential(nn.Conv2d(3, c1, 3, 2, 1), nn.SiLU())
        self.stage2 = nn.Sequential(nn.Conv2d(c1, c2, 3, 2, 1), nn.SiLU())
        self.head = nn.Conv2d(c2, 5, 1)  # objectness + box

    def forward(self, x):
        return self.head(self.stage2(self.stage1(x)))


class FixedDistiller(HierarchicalDistiller):
    def compute_hierarchical_distillation_loss(self, images):
        self.clear_caches()
        with torch.no_grad():
            self.teacher(images)
        self.student(images)  # gradient-enabled student forward
        loss = images.new_zeros(())
        for adaptor, (s_name, t_name) in zip(self.adaptors, self.layer_pairs):
            loss = loss + F.mse_loss(adaptor(self._feats["student"][s_name]),
                                     self._feats["teacher"][t_name])
        return loss / len(self.layer_pairs)


def warmup(distiller_cls, steps=15):
    torch.manual_seed(0)
    teacher, student = TinyBackbone(16, 32), TinyBackbone(8, 16)
    distiller = distiller_cls(student, teacher, [("stage1", "stage1"), ("stage2", "stage2")],
                              [(8, 16), (16, 32)])
    opt = torch.optim.SGD(list(student.parameters()) + list(distiller.adaptors.parameters()), lr=0.1)
    s0 = student.stage1[0].weight.detach().clone()
    a0 = distiller.adaptors[0].weight.detach().clone()
    saw_grad = False
    for _ in range(steps):
        images = torch.randn(4, 3, 32, 32)
        loss = distiller.compute_hierarchical_distillation_loss(images)
        opt.zero_grad()
        loss.backward()
        g = student.stage1[0].weight.grad
        saw_grad |= g is not None and g.abs().sum().item() > 0
        opt.step()
    return saw_grad, not torch.equal(s0, student.stage1[0].weight), not torch.equal(a0, distiller.adaptors[0].weight)


saw_grad, student_moved, adaptor_moved = warmup(HierarchicalDistiller)
assert not saw_grad and not student_moved, "student should be starved by the no_grad block"
assert adaptor_moved

saw_grad, student_moved, adaptor_moved = warmup(FixedDistiller)
assert saw_grad and student_moved and adaptor_moved
print("p02 ok: distillation through no_grad-captured student features never reaches the student")
