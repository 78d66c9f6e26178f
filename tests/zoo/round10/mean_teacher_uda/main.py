"""
expect: none
dynamic: dismiss
source: https://github.com/lhoyer/DAFormer/issues/59

DAFormer issue #59 asks whether the EMA teacher is trained and why `detach()`
is needed if the teacher gets no gradient; the author answers that the teacher
is only updated by the exponential moving average of the student weights, and
the detach keeps the mixed pseudo-label loss from backpropagating into the
teacher. This program follows that design: teacher.py holds an EMATeacher
(plain class) whose pseudo-labels and confidence weight are produced under
torch.no_grad() / detach(), and whose weights follow the student under no_grad.
These cuts are deliberate. The asserts show every student parameter receives
a gradient from both the source loss and the pseudo-label loss (the gradient
equals a reference computed with the pseudo-labels as plain constants), the
teacher gets no gradient, and the EMA update moves the teacher's weights.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from teacher import EMATeacher


class Segmenter(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, n_classes, 1))

    def forward(self, x):
        return self.net(x)


def main():
    torch.manual_seed(0)
    student = Segmenter()
    teacher = EMATeacher(student)
    opt = torch.optim.SGD(student.parameters(), lr=0.1)
    src_img, src_lbl = torch.rand(2, 3, 12, 12), torch.randint(0, 4, (2, 12, 12))
    tgt_img = torch.rand(2, 3, 12, 12)

    opt.zero_grad(set_to_none=True)
    pseudo, weight = teacher.pseudo_labels(tgt_img, threshold=0.0)
    loss = F.cross_entropy(student(src_img), src_lbl) + weight * F.cross_entropy(student(tgt_img), pseudo)
    loss.backward()
    got = [p.grad.clone() for p in student.parameters()]
    assert all(g.abs().sum() > 0 for g in got)
    assert all(p.grad is None for p in teacher.model.parameters())

    # reference: the teacher branch only supplies constants
    ref_student = Segmenter()
    ref_student.load_state_dict(student.state_dict())
    ref_loss = (F.cross_entropy(ref_student(src_img), src_lbl)
                + weight.item() * F.cross_entropy(ref_student(tgt_img), pseudo.clone()))
    ref = torch.autograd.grad(ref_loss, list(ref_student.parameters()))
    assert all(torch.allclose(g, r) for g, r in zip(got, ref))

    opt.step()
    before = [p.clone() for p in teacher.model.parameters()]
    teacher.update(student)
    assert any(not torch.equal(b, a) for b, a in zip(before, teacher.model.parameters()))
    print("student trains on source + pseudo-labels, teacher follows by EMA only")


if __name__ == "__main__":
    main()
