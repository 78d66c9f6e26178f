import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class MeanTeacher(nn.Module):
    def __init__(self, in_features=6, hidden=24, num_classes=3, momentum=0.95):
        super().__init__()
        self.student = nn.Sequential(
            nn.Linear(in_features, hidden), nn.ReLU(), nn.Linear(hidden, num_classes)
        )
        self.teacher = copy.deepcopy(self.student)
        for p in self.teacher.parameters():
            p.requires_grad_(False)
        self.momentum = momentum

    def forward(self, x_labeled, y, x_unlabeled):
        sup = F.cross_entropy(self.student(x_labeled), y)
        noisy = x_unlabeled + 0.1 * torch.randn_like(x_unlabeled)
        with torch.no_grad():
            target = F.softmax(self.teacher(x_unlabeled), dim=-1)
        consistency = F.mse_loss(F.softmax(self.student(noisy), dim=-1), target)
        return sup + consistency, sup

    @torch.no_grad()
    def update_teacher(self):
        for t, s in zip(self.teacher.parameters(), self.student.parameters()):
            t.mul_(self.momentum).add_(s, alpha=1 - self.momentum)
