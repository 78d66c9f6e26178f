"""
expect: GL001 48
dynamic: confirm
source: https://github.com/ultralytics/ultralytics/issues/6197

A user adding knowledge distillation to a YOLO detection loss reported that no matter how
large alpha was set, validation metrics did not move: only the ordinary classification
term seemed to train. The distillation BCE was computed on sigmoid(pred_scores.detach()),
so the student scores were cut from the graph before being compared with the teacher.
This program rebuilds that loss class; the asserts show the student's gradient is exactly
the same with alpha = 5e6 and alpha = 0, and that without the detach alpha matters.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class StudentHead(nn.Module):
    def __init__(self, c_in=16, n_cls=5):
        super().__init__()
        self.stem = nn.Sequential(nn.Linear(c_in, 32), nn.SiLU())
        self.cls = nn.Linear(32, n_cls)

    def forward(self, x):
        return self.cls(self.stem(x))          # anchors x classes (raw scores)


class TeacherHead(StudentHead):
    pass


class DistillDetectionLoss:
    def __init__(self, alpha, beta=0.3):
        self.alpha, self.beta = alpha, beta
        self.bce = nn.BCEWithLogitsLoss(reduction="none")
        self.kd_bce = nn.BCELoss(reduction="none")

    def __call__(self, pred_scores, target_scores, teacher_scores):
        target_scores_sum = max(target_scores.sum(), 1)
        loss_student = self.bce(pred_scores, target_scores).sum() / target_scores_sum
        loss_distillation = self.distill(pred_scores, teacher_scores)
        return self.alpha * loss_distillation + self.beta * loss_student

    def distill(self, pred_scores, teacher_scores):
        pred_scores_student = torch.sigmoid(pred_scores.detach())
        return self.kd_bce(pred_scores_student, teacher_scores).sum()


class DistillNoDetach(DistillDetectionLoss):
    def distill(self, pred_scores, teacher_scores):
        return self.kd_bce(torch.sigmoid(pred_scores), teacher_scores).sum()


def student_grads(student, teacher, loss_fn, feats, targets):
    student.zero_grad()
    with torch.no_grad():                       # teacher is frozen: correct use of no_grad
        teacher_scores = torch.sigmoid(teacher(feats))
    loss = loss_fn(student(feats), targets, teacher_scores)
    loss.backward()
    return loss.item(), [p.grad.clone() for p in student.parameters()]


student, teacher = StudentHead(), TeacherHead()
feats = torch.randn(64, 16)
targets = (torch.rand(64, 5) > 0.8).float()

opt = torch.optim.SGD(student.parameters(), lr=1e-3)
for _ in range(3):
    opt.zero_grad()
    with torch.no_grad():
        t = torch.sigmoid(teacher(feats))
    DistillDetectionLoss(alpha=5e6)(student(feats), targets, t).backward()
    opt.step()

big, g_big = student_grads(student, teacher, DistillDetectionLoss(alpha=5e6), feats, targets)
zero, g_zero = student_grads(student, teacher, DistillDetectionLoss(alpha=0.0), feats, targets)
assert big > zero + 1.0, "alpha changes the reported loss enormously"
for a, b in zip(g_big, g_zero):
    assert torch.equal(a, b), "yet alpha has no effect on the student's gradient"

_, g_fixed = student_grads(student, teacher, DistillNoDetach(alpha=5e6), feats, targets)
assert not torch.allclose(g_fixed[0], g_zero[0]), "without .detach() the KD term trains"
print("ok: distillation term adds", f"{big - zero:.3g}", "to the loss and nothing to the gradient")
