"""
expect: none
dynamic: dismiss
source: kind E

A knowledge-distillation step trains a student against a frozen teacher's softened outputs and
takes a monitoring function as a parameter (default: teacher-student top-1 agreement; the script
also passes a confidence-gap metric once); both compute their value inside torch.no_grad() and the
step only logs it, never adds it to the loss. The asserts show the student's weights change on
every call and the logged metrics are plain floats.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(14)

teacher = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4)).eval()
for p in teacher.parameters():
    p.requires_grad_(False)
student = nn.Sequential(nn.Linear(10, 8), nn.ReLU(), nn.Linear(8, 4))
opt = torch.optim.Adam(student.parameters(), lr=1e-2)


def top1_agreement(student_logits, teacher_logits):
    with torch.no_grad():
        agree = (student_logits.argmax(-1) == teacher_logits.argmax(-1)).float().mean()
    return agree.item()


def confidence_gap(student_logits, teacher_logits):
    with torch.no_grad():
        gap = teacher_logits.softmax(-1).amax(-1) - student_logits.softmax(-1).amax(-1)
    return gap.mean().item()


def distill_step(x, log, metric_fn=top1_agreement, temperature=3.0):
    with torch.no_grad():
        t_logits = teacher(x)
    s_logits = student(x)
    loss = F.kl_div(
        F.log_softmax(s_logits / temperature, dim=-1),
        F.softmax(t_logits / temperature, dim=-1),
        reduction="batchmean",
    ) * temperature ** 2
    log.append({"loss": loss.item(), "agreement": metric_fn(s_logits, t_logits)})
    opt.zero_grad()
    loss.backward()
    opt.step()


history = []
for _ in range(4):
    w0 = student[0].weight.detach().clone()
    distill_step(torch.randn(16, 10), history)
    assert not torch.equal(w0, student[0].weight.detach())
w0 = student[0].weight.detach().clone()
distill_step(torch.randn(16, 10), history, metric_fn=confidence_gap)
assert not torch.equal(w0, student[0].weight.detach())
assert all(isinstance(h["agreement"], float) for h in history)
print("logged:", [round(h["agreement"], 2) for h in history])
print("ok")
