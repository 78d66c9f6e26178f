"""
expect: GL001 distill.py:22
dynamic: confirm

From a distillation framework PR whose wrapper detaches the student outputs
whenever the student is not in training mode. A fine-tuning script puts the
student in eval() to freeze its BatchNorm statistics (a common trick) and then
trains it with the KD loss: the wrapper silently detaches the student output,
so the loss has no path to the student. The asserts show the student weights
never move and get no grad, while the same script with BN frozen per-module
(student left in train mode) does update them.
"""
import torch
import torch.nn as nn
from distill import Distiller, kd_loss

torch.manual_seed(0)
torch.set_num_threads(1)


def student_net():
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 4))


teacher = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 4)).eval()
x = torch.randn(64, 8)


def finetune(freeze_bn_by_eval):
    student = student_net()
    wrap = Distiller(student, teacher)
    if freeze_bn_by_eval:
        student.eval()
    else:
        student.train()
        student[1].eval()
    params = [p for p in student.parameters()]
    opt = torch.optim.SGD(params, lr=0.1)
    w0 = student[0].weight.clone()
    for _ in range(5):
        s, t = wrap(x)
        loss = kd_loss(s, t)
        opt.zero_grad()
        if loss.requires_grad:
            loss.backward()
        opt.step()
    return student, w0


bad, w0_bad = finetune(freeze_bn_by_eval=True)
assert bad[0].weight.grad is None
assert torch.equal(bad[0].weight, w0_bad)

good, w0_good = finetune(freeze_bn_by_eval=False)
assert good[0].weight.grad is not None
assert not torch.equal(good[0].weight, w0_good)
print("ok")
