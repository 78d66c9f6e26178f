"""
expect: none
dynamic: dismiss
source: https://github.com/clovaai/overhaul-distillation/issues/37

The question: the distiller puts the teacher network in train mode, so "is the teacher also
trained?" The author answers that train mode only switches BatchNorm to batch statistics; the
teacher's features are detached inside the distillation loss, so no gradient reaches the teacher.
This program rebuilds the Distiller: teacher and student feature extractors with BatchNorm, a
connector on the student, the margin-based partial L2 loss on pre-ReLU features with the
teacher feature detached. The asserts show the student and connector get gradients and the
distillation loss falls, while the teacher's weights keep grad None and never change.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def feature_net(width):
    return nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width))


def distillation_loss(source, target, margin):
    target = torch.max(target, margin)
    loss = F.mse_loss(source, target, reduction="none")
    loss = loss * ((source > target) | (target > 0)).float()
    return loss.sum()


class Distiller(nn.Module):
    def __init__(self, t_net, s_net, width_t=16, width_s=8):
        super().__init__()
        self.t_net, self.s_net = t_net, s_net
        self.connector = nn.Sequential(nn.Conv2d(width_s, width_t, 1, bias=False), nn.BatchNorm2d(width_t))
        self.register_buffer("margin", torch.full((1, width_t, 1, 1), -0.5))
        self.s_head = nn.Linear(width_s, 10)

    def forward(self, x):
        t_feat = self.t_net(x)
        s_feat = self.s_net(x)
        s_logits = self.s_head(F.relu(s_feat).mean((2, 3)))
        loss_distill = distillation_loss(self.connector(s_feat), t_feat.detach(), self.margin)
        return s_logits, loss_distill / x.shape[0] / 1000


torch.manual_seed(0)
teacher, student = feature_net(16), feature_net(8)
d_net = Distiller(teacher, student)
d_net.train()
d_net.t_net.train()  # as in the repository: teacher BN uses batch statistics
opt = torch.optim.SGD(list(student.parameters()) + list(d_net.connector.parameters()) + list(d_net.s_head.parameters()), lr=0.5)
t0 = [p.detach().clone() for p in teacher.parameters()]
x, y = torch.randn(8, 3, 8, 8), torch.randint(0, 10, (8,))

history = []
for _ in range(20):
    logits, loss_distill = d_net(x)
    loss = F.cross_entropy(logits, y) + loss_distill
    opt.zero_grad()
    loss.backward()
    history.append(loss_distill.item())
    opt.step()

assert all(p.grad is None for p in teacher.parameters()), "teacher gets no gradient"
assert all(torch.equal(a, b) for a, b in zip(t0, teacher.parameters()))
assert student[0].weight.grad is not None and d_net.connector[0].weight.grad is not None
assert history[-1] < 0.8 * history[0], history
print("ok: detached teacher features; student distills", round(history[0], 4), "->", round(history[-1], 4))
