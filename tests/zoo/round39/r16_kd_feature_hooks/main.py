"""
expect: GL001 distill.py:15
dynamic: confirm
source: https://github.com/ultralytics/ultralytics/pull/24894

A knowledge-distillation wrapper captures intermediate features of teacher and student with
forward hooks ("hook-based feature capture: identical for teacher and student"). The shared
hook stores `output.detach()`, which is right for the frozen teacher but also cuts the student's
features from its backbone. The feature-distillation loss then trains only the small adapter
on top; the student backbone learns from the task loss alone. The asserts show the backbone
gradient is identical whether the feature weight is 0 or 100, while the adapter does get a
gradient, and that capturing the student's features without detach changes the backbone gradient.
"""
import torch
import torch.nn as nn
from distill import DistillationModel

torch.manual_seed(0)
torch.set_num_threads(1)


class Net(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(12, width), nn.ReLU(), nn.Linear(width, width))
        self.head = nn.Linear(width, 3)

    def forward(self, x):
        return self.head(torch.relu(self.backbone(x)))


teacher, student = Net(32), Net(8)
x, y = torch.randn(20, 12), torch.randint(0, 3, (20,))
kd = DistillationModel(teacher, student, "backbone", s_dim=8, t_dim=32)


def backbone_grad(weight):
    kd.zero_grad()
    kd.feat_weight = weight
    total, _, feat = kd.loss(x, y)
    total.backward()
    return [p.grad.clone() for p in student.backbone.parameters()], feat


g0, _ = backbone_grad(0.0)
g100, feat = backbone_grad(100.0)
assert feat.item() > 0
for a, b in zip(g0, g100):
    assert torch.equal(a, b)
assert kd.adapter.weight.grad is not None and kd.adapter.weight.grad.abs().sum() > 0

# fixed: keep the student's captured features in the graph
kd.s_tap._hook = None
kd.s_tap.handle.remove()
kd.s_tap.handle = student.backbone.register_forward_hook(
    lambda m, i, o: setattr(kd.s_tap, "feats", o))
g100_fixed, _ = backbone_grad(100.0)
assert any(not torch.allclose(a, b) for a, b in zip(g0, g100_fixed))
print("ok: feature distillation never reaches the student backbone")
