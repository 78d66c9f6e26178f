"""Distillation loss for the class-incremental learner (soft targets from the frozen previous model)."""
import torch
import torch.nn.functional as F
from torch.autograd import Variable


def soft_target_cross_entropy(new_logits, old_logits, temperature):
    """Cross-entropy between the softened old-model outputs and the new model's outputs."""
    teacher = Variable(old_logits.data, requires_grad=False)
    log_p = F.log_softmax(new_logits / temperature, dim=1)
    q = F.softmax(teacher / temperature, dim=1)
    per_sample = torch.sum(log_p * q, dim=1)
    value = -torch.mean(per_sample)
    return Variable(value.data, requires_grad=True)


def soft_target_cross_entropy_fixed(new_logits, old_logits, temperature):
    """The same quantity, returned with its graph attached."""
    log_p = F.log_softmax(new_logits / temperature, dim=1)
    q = F.softmax(old_logits.detach() / temperature, dim=1)
    return -torch.mean(torch.sum(log_p * q, dim=1))
