"""
expect: GL001 distill_trainer.py:55
dynamic: confirm
source: https://github.com/garlic-byte/yolov8_distillation/issues/1

A YOLO-style feature-distillation trainer at toy scale. build_optimizer() walks the
student, the 1x1 aligners and also the teacher, because the author's stated intent (in the
linked thread: "the teacher also needs to learn to teach the student better") is that the
teacher is trained together with the student. But train_step() runs the teacher inside
torch.no_grad(), so its logits and the features its forward hooks store carry no history:
the distillation loss reaches the student and the aligners only, every teacher parameter
keeps .grad None, and SGD (which skips parameters without a gradient) never moves them.
The asserts show the teacher parameters are in the optimizer, stay bit-identical after
training while the student and aligners move, and that the same loss computed with the
teacher forward outside no_grad does give the teacher a gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from distill_trainer import DistillTrainer, build_optimizer

torch.manual_seed(0)
torch.set_num_threads(1)


def backbone(c1, c2, n_cls=5):
    return nn.Sequential(
        nn.Conv2d(3, c1, 3, padding=1), nn.BatchNorm2d(c1), nn.SiLU(),
        nn.Conv2d(c1, c2, 3, stride=2, padding=1), nn.BatchNorm2d(c2), nn.SiLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(c2, n_cls),
    )


student = backbone(8, 16)
teacher = backbone(16, 32)
teacher.eval()
aligners = nn.ModuleList([nn.Conv2d(16, 32, 1)])
trainer = DistillTrainer(student, teacher, [student[5]], [teacher[5]], aligners)
optimizer = build_optimizer(student, teacher, aligners)

in_opt = {id(p) for g in optimizer.param_groups for p in g["params"]}
assert all(id(p) in in_opt for p in teacher.parameters()), "teacher should be in the optimizer"

t0 = {n: p.detach().clone() for n, p in teacher.named_parameters()}
s0 = {n: p.detach().clone() for n, p in student.named_parameters()}
a0 = aligners[0].weight.detach().clone()

imgs = torch.randn(16, 3, 16, 16)
targets = torch.randint(0, 5, (16,))
losses = [trainer.train_step(imgs, targets, optimizer) for _ in range(15)]

assert all(p.grad is None for p in teacher.parameters())
assert all(torch.equal(p, t0[n]) for n, p in teacher.named_parameters()), "teacher moved?"
assert any(not torch.equal(p, s0[n]) for n, p in student.named_parameters())
assert not torch.equal(aligners[0].weight, a0)
assert losses[-1] < losses[0]

# intended: the same distillation loss with the teacher forward recorded
optimizer.zero_grad()
s_logits = student(imgs)
t_logits = teacher(imgs)
kd = trainer.distill_loss(trainer.s_hooks.pop(), trainer.t_hooks.pop(), s_logits, t_logits)
(F.cross_entropy(s_logits, targets) + kd).backward()
t_grad = sum(p.grad.abs().sum().item() for p in teacher.parameters() if p.grad is not None)
assert t_grad > 0, "with the teacher recorded, the distillation loss reaches it"

print(f"kd loss {losses[0]:.3f} -> {losses[-1]:.3f}; teacher unchanged after 15 steps; "
      f"teacher grad mass when recorded: {t_grad:.3f}")
