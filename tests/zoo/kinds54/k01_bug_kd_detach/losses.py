import torch.nn.functional as F


def _no_grad_copy(t):
    return t.detach()


def distill_loss(student_logits, teacher_logits, labels, tau=2.0):
    hard = F.cross_entropy(student_logits, labels)
    soft = F.kl_div(F.log_softmax(_no_grad_copy(student_logits) / tau, -1),
                    F.softmax(teacher_logits / tau, -1), reduction="batchmean")
    return hard + tau * tau * soft


def label_only_loss(student_logits, teacher_logits, labels, tau=2.0):
    return F.cross_entropy(student_logits, labels)
