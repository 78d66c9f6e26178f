"""
expect: none
dynamic: dismiss
source: none, invented

A semi-supervised mean-teacher setup: MeanTeacher in model.py holds a student network and an exponential
moving average copy of it. In forward, the only no_grad block computes the soft target from the EMA teacher
for the unlabeled batch; the student's own predictions, on both labeled and unlabeled data, stay in the graph.
The training helper below builds the optimizer over the student only and calls update_teacher after each step.
Nothing that should learn is cut off, so this is not a bug. The asserts show the student's first layer gets
gradients and moves, the teacher never gets a .grad yet follows the student through the EMA, and the
supervised loss falls.
"""
import torch

from model import MeanTeacher

torch.manual_seed(0)
torch.set_num_threads(1)


def train_semi_supervised(module, labeled, unlabeled, steps=80, lr=0.05):
    x_l, y_l = labeled
    optimizer = torch.optim.SGD(module.student.parameters(), lr=lr, momentum=0.9)
    history = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss, sup = module(x_l, y_l, unlabeled)
        loss.backward()
        optimizer.step()
        module.update_teacher()
        history.append(sup.item())
    return history


def main():
    x_l = torch.randn(48, 6)
    y_l = torch.argmax(x_l[:, :3], dim=1)
    x_u = torch.randn(256, 6)

    module = MeanTeacher()
    student_before = module.student[0].weight.detach().clone()
    teacher_before = module.teacher[0].weight.detach().clone()

    history = train_semi_supervised(module, (x_l, y_l), x_u)

    assert module.student[0].weight.grad is not None
    assert module.student[0].weight.grad.abs().sum() > 0
    assert not torch.equal(student_before, module.student[0].weight)
    assert module.teacher[0].weight.grad is None
    assert not torch.equal(teacher_before, module.teacher[0].weight)
    assert history[-1] < history[0] * 0.7, (history[0], history[-1])
    print("ok: student trains, EMA teacher follows", round(history[0], 3), "->", round(history[-1], 3))


if __name__ == "__main__":
    main()
