"""Base for semi-supervised (mean-teacher) consistency losses."""
import torch.nn as nn


class TeacherConsistencyBase(nn.Module):
    def __init__(self, consistency_weight=1.0):
        super().__init__()
        self.consistency_weight = consistency_weight

    def _teacher_target(self, teacher_out):
        return teacher_out.detach()

    def _masked_mse(self, a, b, mask):
        return ((a - b).pow(2) * mask).sum() / mask.sum().clamp_min(1.0)
