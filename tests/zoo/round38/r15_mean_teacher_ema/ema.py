import copy

import torch.nn as nn


def make_teacher(student: nn.Module) -> nn.Module:
    teacher = copy.deepcopy(student)
    for p in teacher.parameters():
        p.detach_()  # the teacher is never trained by backprop
    return teacher


def update_ema_variables(student, teacher, alpha, global_step):
    alpha = min(1 - 1 / (global_step + 1), alpha)
    for ema_param, param in zip(teacher.parameters(), student.parameters()):
        ema_param.data.mul_(alpha).add_(param.data, alpha=1 - alpha)
