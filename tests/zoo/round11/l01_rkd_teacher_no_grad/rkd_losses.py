"""Relational knowledge distillation losses (distance-wise and angle-wise)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def pairwise_dist(e, eps=1e-12):
    sq = e.pow(2).sum(dim=1)
    prod = e @ e.t()
    d = (sq.unsqueeze(1) + sq.unsqueeze(0) - 2 * prod).clamp(min=eps).sqrt()
    d = d.clone()
    d[range(len(e)), range(len(e))] = 0
    return d


class RkdDistance(nn.Module):
    def forward(self, student, teacher):
        with torch.no_grad():
            t_d = pairwise_dist(teacher)
            t_d = t_d / t_d[t_d > 0].mean()
        d = pairwise_dist(student)
        d = d / d[d > 0].mean()
        return F.smooth_l1_loss(d, t_d)


class RkdAngle(nn.Module):
    def forward(self, student, teacher):
        with torch.no_grad():
            td = teacher.unsqueeze(0) - teacher.unsqueeze(1)
            norm_td = F.normalize(td, p=2, dim=2)
            t_angle = torch.bmm(norm_td, norm_td.transpose(1, 2)).view(-1)
        sd = student.unsqueeze(0) - student.unsqueeze(1)
        norm_sd = F.normalize(sd, p=2, dim=2)
        s_angle = torch.bmm(norm_sd, norm_sd.transpose(1, 2)).view(-1)
        return F.smooth_l1_loss(s_angle, t_angle)
