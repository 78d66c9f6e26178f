"""
expect: GL002 40
dynamic: confirm
source: https://github.com/IntelLabs/distiller/issues/234

Knowledge distillation wired as a training "policy": the policy's forward runs the frozen
teacher, runs the student, and keeps a copy of the student logits for the distillation
term that a later hook adds to the hard-label loss. The copy is made with
`out.new_tensor(out, requires_grad=True)`, which rebuilds the logits as a fresh leaf, so
the KL term's gradient stops at that copy and never reaches the student: the student is
trained by the hard-label loss alone. The program asserts the student gradient equals the
gradient of the weighted hard loss by itself, differs from the gradient with the
distillation term on the record, and that the copied leaf soaked up the KD gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def mlp(width):
    return nn.Sequential(nn.Linear(16, width), nn.ReLU(), nn.Linear(width, 5))


class KnowledgeDistillationPolicy:
    def __init__(self, student, teacher, temperature=4.0, student_weight=0.5, distill_weight=0.5):
        self.student = student
        self.teacher = teacher.eval().requires_grad_(False)
        self.temperature = temperature
        self.student_weight = student_weight
        self.distill_weight = distill_weight
        self.teacher_logits = None
        self.last_student_logits = None

    def forward(self, x):
        with torch.no_grad():
            self.teacher_logits = self.teacher(x)
        out = self.student(x)
        self.last_student_logits = out.new_tensor(out, requires_grad=True)
        return out

    def before_backward_pass(self, loss):
        t = self.temperature
        soft_log_probs = F.log_softmax(self.last_student_logits / t, dim=1)
        soft_targets = F.softmax(self.teacher_logits / t, dim=1)
        distillation_loss = F.kl_div(soft_log_probs, soft_targets, reduction="batchmean") * t * t
        return self.student_weight * loss + self.distill_weight * distillation_loss


def grads_of(model):
    return torch.cat([p.grad.flatten() for p in model.parameters()])


teacher, student = mlp(64), mlp(8)
policy = KnowledgeDistillationPolicy(student, teacher)
x, y = torch.randn(32, 16), torch.randint(0, 5, (32,))

out = policy.forward(x)
loss = F.cross_entropy(out, y)
overall = policy.before_backward_pass(loss)
student.zero_grad()
overall.backward()
g_policy = grads_of(student)
assert policy.last_student_logits.grad is not None and policy.last_student_logits.grad.abs().sum() > 0

# hard-label loss alone, same weighting
student.zero_grad()
(0.5 * F.cross_entropy(student(x), y)).backward()
g_hard = grads_of(student)

# distillation term kept on the record
student.zero_grad()
logits = student(x)
with torch.no_grad():
    t_logits = teacher(x)
kd = F.kl_div(F.log_softmax(logits / 4.0, 1), F.softmax(t_logits / 4.0, 1), reduction="batchmean") * 16
(0.5 * F.cross_entropy(logits, y) + 0.5 * kd).backward()
g_full = grads_of(student)

assert torch.allclose(g_policy, g_hard, atol=1e-7), "KD term reached the student"
assert not torch.allclose(g_policy, g_full, atol=1e-4), "KD term should change the gradient"

print("OK")
