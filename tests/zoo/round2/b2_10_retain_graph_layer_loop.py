"""expect: GL004 35
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/40005

A layer-wise distillation script trains the student's intermediate layers one
by one: for each mapped layer it computes a KL loss against the teacher's
hidden state and calls `backward(retain_graph=True)` inside the loop. Every
call keeps the whole shared graph (and its saved activations) alive, and the
reporter ran out of memory; the maintainers pointed to the known issue and
recommended `autograd.grad()` or a single combined backward.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Student(nn.Module):
    def __init__(self, dim=8, layers=3):
        super().__init__()
        self.blocks = nn.ModuleList(nn.Linear(dim, dim) for _ in range(layers))

    def forward(self, x):
        hidden = [x]
        for blk in self.blocks:
            x = torch.tanh(blk(x))
            hidden.append(x)
        return hidden


def distill_layers(student, s_hidden, t_hidden, layer_map):
    kl = nn.KLDivLoss(reduction="batchmean")
    last = None
    for i, k in enumerate(layer_map):
        out = kl(F.log_softmax(s_hidden[i + 1], dim=-1), F.softmax(t_hidden[k + 1], dim=-1))
        out.backward(retain_graph=True)
        last = out
    return last


if __name__ == "__main__":
    torch.manual_seed(0)
    student = Student()
    x = torch.randn(4, 8)
    with torch.no_grad():
        teacher_hidden = Student(layers=5)(x)
    last = distill_layers(student, student(x), teacher_hidden, [1, 3, 4])
    assert student.blocks[0].weight.grad.abs().sum() > 0
    # the graph of every iteration is still alive after the loop: a further
    # backward through the last loss succeeds instead of raising
    torch.autograd.grad(last, student.blocks[0].weight)
    print("ok: graphs retained after the loop")
