"""
expect: GL001 47
dynamic: confirm
source: kinds check 23, kind 2 (written for this check)

Mean-teacher semi-supervised lesion classification. The teacher is a deepcopy of the student averaged in by a loop
in the trainer, and its predictions are made under no_grad (correct). But the writer also .detach()ed the student's
backbone features before its head, and the student backbone is not averaged from anything, is in the optimizer,
and has no other loss path, so it never learns. The asserts show the backbone's grads are None and its weights
unchanged after training while the head moves; the uncut forward does reach the backbone.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class Student(nn.Module):
    def __init__(self, n_cls=2):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
                                      nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(16, n_cls)

    def forward(self, x):
        return self.head(self.backbone(x))


class MeanTeacherTrainer:
    def __init__(self, alpha=0.99, cons_weight=1.0):
        self.student = Student()
        self.teacher = copy.deepcopy(self.student)
        self.alpha, self.cons_weight = alpha, cons_weight
        self.opt = torch.optim.Adam(self.student.parameters(), lr=1e-3)

    def update_teacher(self):
        with torch.no_grad():
            for t, s in zip(self.teacher.parameters(), self.student.parameters()):
                t.mul_(self.alpha).add_(s, alpha=1 - self.alpha)

    def step(self, x_lab, y_lab, x_unlab):
        with torch.no_grad():
            teacher_prob = F.softmax(self.teacher(x_unlab + 0.05 * torch.randn_like(x_unlab)), dim=1)
        x_all = torch.cat([x_lab, x_unlab])
        feats = self.student.backbone(x_all).detach()
        logits = self.student.head(feats)
        sup = F.cross_entropy(logits[: len(x_lab)], y_lab)
        cons = F.mse_loss(F.softmax(logits[len(x_lab):], dim=1), teacher_prob)
        loss = sup + self.cons_weight * cons
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.update_teacher()


torch.manual_seed(5)
trainer = MeanTeacherTrainer()
bb_start = [p.detach().clone() for p in trainer.student.backbone.parameters()]
head_start = [p.detach().clone() for p in trainer.student.head.parameters()]
for _ in range(8):
    trainer.step(torch.randn(8, 1, 16, 16), torch.randint(0, 2, (8,)), torch.randn(24, 1, 16, 16))

bb = list(trainer.student.backbone.parameters())
assert all(p.grad is None for p in bb)
assert all(torch.equal(a, b) for a, b in zip(bb_start, bb))
assert any(not torch.equal(a, b) for a, b in zip(head_start, trainer.student.head.parameters()))

# fixed variant: the same loss through the uncut student reaches the backbone
F.cross_entropy(trainer.student(torch.randn(8, 1, 16, 16)), torch.randint(0, 2, (8,))).backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in bb)
print("bug confirmed: student backbone starved by the detach before its head")
