import torch
import torch.nn as nn
import torch.nn.functional as F


class Distiller(nn.Module):
    """Runs student and teacher on the same batch and returns both outputs."""

    def __init__(self, student, teacher):
        super().__init__()
        self.student = student
        self.teacher = teacher
        for p in self.teacher.parameters():
            p.requires_grad_(False)

    def forward(self, x):
        s_out = self.student(x)
        with torch.no_grad():
            t_out = self.teacher(x)
        if not self.student.training:
            # meant for evaluation only: nothing to backprop there
            s_out = s_out.detach()
        return s_out, t_out


def kd_loss(s_logits, t_logits, T=2.0):
    return F.kl_div(F.log_softmax(s_logits / T, 1), F.softmax(t_logits / T, 1),
                    reduction="batchmean") * T * T
