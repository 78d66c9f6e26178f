"""expect: none
dynamic: dismiss
source: https://github.com/AberHu/Knowledge-Distillation-Zoo/blob/master/kd_losses/sobolev.py

Jacobian-matching distillation as in the Knowledge-Distillation-Zoo trainer: the batch of images is switched
to requires_grad = True, a frozen teacher and a student both run on it, and the loss in kd_losses.py takes
torch.autograd.grad of each network's target logit with respect to the images (create_graph=True,
retain_graph=True) and matches the normalised input gradients, with the teacher side detached. Every piece
is on purpose: the input switch is what makes input gradients exist, create_graph keeps the student's
Jacobian differentiable, retain_graph keeps the forward graph for the later loss.backward(), and the teacher
is a fixed target. The asserts check that the KD term alone gives the student's weights a non-zero
gradient, the teacher never gets one, and the Jacobian-matching loss falls during training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from kd_losses import Sobolev

torch.manual_seed(0)
torch.set_num_threads(1)


def make_net(hidden):
    return nn.Sequential(nn.Conv2d(3, hidden, 3, padding=1), nn.Softplus(), nn.AdaptiveAvgPool2d(2),
                         nn.Flatten(), nn.Linear(hidden * 4, 10))


teacher = make_net(16)
for p in teacher.parameters():
    p.requires_grad = False
teacher.eval()
student = make_net(6)
criterion_kd = Sobolev()
optimizer = torch.optim.Adam(student.parameters(), lr=0.01)

img_all = torch.randn(32, 3, 8, 8)
target_all = torch.randint(0, 10, (32,))

kd_history = []
for step in range(60):
    img = img_all.clone()
    img.requires_grad = True
    out_s = student(img)
    out_t = teacher(img)
    cls_loss = F.cross_entropy(out_s, target_all)
    kd_loss = criterion_kd(out_s, out_t, img, target_all) * 100.0
    if step == 0:
        weights = [student[0].weight, student[4].weight]
        kd_only = torch.autograd.grad(kd_loss, weights, retain_graph=True)
        assert all(g.abs().sum() > 0 for g in kd_only)
    loss = cls_loss + kd_loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    kd_history.append(kd_loss.item())

assert all(p.grad is None for p in teacher.parameters())
assert sum(kd_history[-5:]) < 0.6 * sum(kd_history[:5]), kd_history
print("jacobian-matching loss: %.4f -> %.4f" % (kd_history[0], kd_history[-1]))
