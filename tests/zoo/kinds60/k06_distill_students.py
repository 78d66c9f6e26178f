"""
expect: none
dynamic: dismiss
source: none, invented

Knowledge distillation from one teacher into two student MLPs at once. The teacher is first fit on the labels
with its own optimizer (`fit_teacher`); then `distill` keeps the students in a dict and builds a single SGD
optimizer with `itertools.chain(*(s.parameters() for s in students.values()))`. The teacher's logits are
computed under `torch.no_grad()` and its path to the distillation loss is gone, but that is intended: the
teacher is not among the optimizer's models, it is finished training and serves only as a soft target. Each
student's loss (temperature-scaled KL to the teacher plus cross-entropy) goes through its own forward. The
asserts check that every student's weights move and its agreement with the teacher rises, and that the
teacher is left exactly as it was after its own training.
"""
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

IN_DIM, N_CLASSES = 20, 5


def make_mlp(hidden, depth):
    layers, d = [], IN_DIM
    for _ in range(depth):
        layers += [nn.Linear(d, hidden), nn.ReLU()]
        d = hidden
    return nn.Sequential(*layers, nn.Linear(d, N_CLASSES))


def fit_teacher(teacher, x, y, epochs=60):
    opt = torch.optim.Adam(teacher.parameters(), lr=1e-3)
    for _ in range(epochs):
        for xb, yb in zip(x.split(128), y.split(128)):
            loss = F.cross_entropy(teacher(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    teacher.eval()


def agreement(student, teacher, x):
    with torch.no_grad():
        return (student(x).argmax(-1) == teacher(x).argmax(-1)).float().mean().item()


def distill(teacher, students, x, y, epochs=40, temperature=3.0, alpha=0.7):
    opt = torch.optim.SGD(itertools.chain(*(s.parameters() for s in students.values())), lr=0.05, momentum=0.9)
    for _ in range(epochs):
        perm = torch.randperm(x.shape[0])
        for idx in perm.split(128):
            xb, yb = x[idx], y[idx]
            with torch.no_grad():
                soft_targets = F.softmax(teacher(xb) / temperature, dim=-1)
            loss = 0.0
            for name, student in students.items():
                logits = student(xb)
                kd = F.kl_div(F.log_softmax(logits / temperature, dim=-1), soft_targets, reduction="batchmean")
                loss = loss + alpha * temperature ** 2 * kd + (1 - alpha) * F.cross_entropy(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()


def main():
    x = torch.randn(3000, IN_DIM)
    w = torch.randn(IN_DIM, N_CLASSES)
    y = (torch.sin(x @ w) + 0.3 * (x @ w)).argmax(-1)

    teacher = make_mlp(256, 3)
    fit_teacher(teacher, x, y)
    teacher_state = {k: v.clone() for k, v in teacher.state_dict().items()}

    students = {"mlp_small": make_mlp(64, 2), "mlp_tiny": make_mlp(16, 1)}
    before = {name: [p.detach().clone() for p in s.parameters()] for name, s in students.items()}
    agree_before = {name: agreement(s, teacher, x) for name, s in students.items()}

    distill(teacher, students, x, y)

    for name, s in students.items():
        assert not any(torch.equal(a, b) for a, b in zip(before[name], s.parameters())), name
        agree_after = agreement(s, teacher, x)
        assert agree_after > agree_before[name] + 0.3, (name, agree_before[name], agree_after)
        print(f"{name}: agreement with teacher {agree_before[name]:.3f} -> {agree_after:.3f}")
    assert all(torch.equal(v, teacher.state_dict()[k]) for k, v in teacher_state.items())


if __name__ == "__main__":
    main()
