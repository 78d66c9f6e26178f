"""
expect: GL001 36
dynamic: confirm
source: none, invented

A small keyword-spotting student network is compressed from a larger teacher. The loss module runs the student,
runs the teacher under no_grad, and returns (loss, student_logits), where loss = cross-entropy of the student
logits + a KL term computed by a helper method. The helper is handed student_logits.detach(), so the KL term
carries no gradient back to the student: the distillation signal, the whole point of the module, trains nothing
and only the hard-label cross-entropy updates the student. This is a bug.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class KeywordDistillLoss(nn.Module):
    def __init__(self, temperature=2.0, alpha=0.7):
        super().__init__()
        self.temperature = temperature
        self.alpha = alpha

    def soft_kl(self, student_logits, teacher_logits):
        t = self.temperature
        log_p = F.log_softmax(student_logits / t, dim=-1)
        q = F.softmax(teacher_logits / t, dim=-1)
        return F.kl_div(log_p, q, reduction="batchmean") * t * t

    def forward(self, inputs, labels, student, teacher):
        student_logits = student(inputs)
        with torch.no_grad():
            teacher_logits = teacher(inputs)
        ce = F.cross_entropy(student_logits, labels)
        kl = self.soft_kl(student_logits.detach(), teacher_logits)
        loss = (1 - self.alpha) * ce + self.alpha * kl
        return loss, student_logits


def make_net(hidden):
    return nn.Sequential(nn.Linear(40, hidden), nn.ReLU(), nn.Linear(hidden, 10))


teacher = make_net(128)
student = make_net(16)
criterion = KeywordDistillLoss()
opt = torch.optim.SGD(student.parameters(), lr=0.1)

mfcc = torch.randn(32, 40)
labels = torch.randint(0, 10, (32,))

for step in range(3):
    opt.zero_grad()
    loss, logits = criterion(mfcc, labels, student, teacher)
    loss.backward()
    opt.step()

# Proof: the KL term alone contributes no gradient to the student.
student.zero_grad()
logits = student(mfcc)
with torch.no_grad():
    t_logits = teacher(mfcc)
kl_only = criterion.soft_kl(logits.detach(), t_logits)
assert not kl_only.requires_grad, "KL term should be cut from the student graph"
kl_live = criterion.soft_kl(logits, t_logits)
assert kl_live.item() > 0
kl_live.backward()
assert student[0].weight.grad.abs().sum() > 0, "with live logits the KL term would train the student"

# And the full loss' gradient equals the cross-entropy part alone.
student.zero_grad()
loss, _ = criterion(mfcc, labels, student, teacher)
loss.backward()
g_full = student[0].weight.grad.clone()
student.zero_grad()
((1 - criterion.alpha) * F.cross_entropy(student(mfcc), labels)).backward()
assert torch.allclose(g_full, student[0].weight.grad), "KL adds nothing to the gradient"
print("k01 ok: distillation term trains nothing")
