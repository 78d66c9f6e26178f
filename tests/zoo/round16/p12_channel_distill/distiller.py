"""Channel-wise distillation loss between a teacher and a student feature map."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ChannelWiseDivergence(nn.Module):
    def __init__(self, tau=2.0, loss_weight=1.0):
        super().__init__()
        self.tau = tau
        self.loss_weight = loss_weight

    def forward(self, preds_S, preds_T):
        N, C, L = preds_S.shape
        soft_T = F.softmax(preds_T.reshape(-1, L) / self.tau, dim=1)
        log_S = F.log_softmax(preds_S.reshape(-1, L) / self.tau, dim=1)
        loss = torch.sum(soft_T * (torch.log(soft_T + 1e-12) - log_S)) * self.tau ** 2
        return self.loss_weight * loss / (N * C)


class SelfDistiller(nn.Module):
    """Teacher and student are both live modules; only the student is optimised here."""

    def __init__(self, teacher, student, tau=2.0):
        super().__init__()
        self.teacher = teacher
        self.student = student
        self.cwd = ChannelWiseDivergence(tau)

    def compute_distill_loss(self, x):
        feat_T = self.teacher(x).detach()
        feat_S = self.student(x)
        return self.cwd(feat_S, feat_T)
