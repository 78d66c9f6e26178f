"""
expect: GL001 47
dynamic: confirm
source: https://github.com/imatif17/Prototype-Mean-Teacher/issues/14

Prototype-Mean-Teacher issue #14 ("Why detach prototypes in 'prototype_all' branch?"): the
prototype alignment loss detaches the student/teacher prototypes in place (detach_()) right after
the alignment term, and only THEN builds the inter-class contrastive term loss_c from
self.prototype_s1 - so loss_c is computed wholly from cut values and can never update the model;
the author agreed the detach should come after loss_c. (Current PyTorch refuses an in-place
detach_() of a tensor saved for backward, so the rebuild uses the out-of-place form x = x.detach(),
which cuts the same path.) This program rebuilds the prototype module
for a domain-adaptive detector's ROI features and asserts loss_c has no graph, that adding it
changes no gradient at all, and that the inter-class separation it is meant to enforce does not
improve; with the detach moved after loss_c the term produces gradients and separates classes.
"""
import itertools
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def class_prototypes(feats, labels, num_classes):
    onehot = F.one_hot(labels, num_classes).float()
    return (onehot.t() @ feats) / onehot.sum(0, keepdim=True).t().clamp(min=1)


class PrototypeLoss(nn.Module):
    def __init__(self, num_classes, contra=True, detach_after_contrast=False):
        super().__init__()
        self.num_classes, self.contra = num_classes, contra
        self.detach_after_contrast = detach_after_contrast

    def forward(self, f_s1, f_s2, f_t, labels):
        self.prototype_s1 = class_prototypes(f_s1, labels, self.num_classes)
        self.prototype_s2 = class_prototypes(f_s2, labels, self.num_classes)
        self.prototype_t = class_prototypes(f_t, labels, self.num_classes)
        loss_pro1 = F.cosine_similarity(self.prototype_s1, self.prototype_t).abs().mean()
        loss_pro2 = F.cosine_similarity(self.prototype_s2, self.prototype_t).abs().mean()
        loss_pro3 = F.cosine_similarity(self.prototype_s1, self.prototype_s2).abs().mean()
        loss = -(loss_pro1 + loss_pro2 + loss_pro3) / 3
        if not self.detach_after_contrast:
            # stop-gradient on the prototypes (the repo calls .detach_() here)
            self.prototype_t = self.prototype_t.detach()
            self.prototype_s1 = self.prototype_s1.detach()
            self.prototype_s2 = self.prototype_s2.detach()
        loss_c = 0
        if self.contra:
            for i, j in itertools.combinations(range(self.num_classes), 2):
                loss_c += F.cosine_similarity(self.prototype_s1[i].view(1, -1),
                                              self.prototype_s1[j].view(1, -1)).abs().mean()
            loss_c = loss_c / math.comb(self.num_classes, 2)
        if self.detach_after_contrast:
            self.prototype_t = self.prototype_t.detach()
            self.prototype_s1 = self.prototype_s1.detach()
            self.prototype_s2 = self.prototype_s2.detach()
        return loss, loss_c


def grads_of(model, loss):
    model.zero_grad()
    loss.backward(retain_graph=True)
    return torch.cat([p.grad.flatten() for p in model.parameters()])


def run(detach_after_contrast):
    torch.manual_seed(0)
    student = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8))
    teacher = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8))
    crit = PrototypeLoss(num_classes=4, detach_after_contrast=detach_after_contrast)
    opt = torch.optim.SGD(student.parameters(), lr=0.5)
    roi = torch.randn(64, 16)
    labels = torch.arange(64) % 4
    seps = []
    for step in range(40):
        with torch.no_grad():
            f_t = teacher(roi)
        f_s1, f_s2 = student(roi), student(roi + 0.05 * torch.randn_like(roi))
        loss, loss_c = crit(f_s1, f_s2, f_t, labels)
        if step == 0:
            g_total = grads_of(student, loss + loss_c)
            g_align = grads_of(student, loss)
            first = (loss_c.requires_grad, torch.allclose(g_total, g_align))
        opt.zero_grad()
        (loss + loss_c).backward()
        opt.step()
        seps.append(loss_c.detach().item())
    return first, seps


(c_has_graph, same_grads), seps = run(detach_after_contrast=False)
assert not c_has_graph and same_grads, "loss_c must be dead in the buggy order"
(c_has_graph_fix, same_grads_fix), seps_fix = run(detach_after_contrast=True)
assert c_has_graph_fix and not same_grads_fix
assert seps_fix[-1] < seps_fix[0] - 0.1, seps_fix[::10]
assert seps_fix[-1] < seps[-1], (seps[-1], seps_fix[-1])
print("p03 ok: contrastive prototype term built after detach_() contributes no gradient")
