"""
expect: none
dynamic: dismiss
source: none, invented

Knowledge distillation for a small student classifier, written as a step-budgeted while loop. Inside the
loop body the distillation term is bound only under `if teacher is not None:` (the teacher's logits under
no_grad, then a temperature-scaled KL term), and a second `if teacher is not None:` later adds it to the
cross-entropy. Both branches test the same unchanged argument, and the term is recomputed from the current
batch on every iteration, so it is never stale and never undefined. The asserts show the student trains
with the teacher (weights move, loss falls, KL term shrinks) and also trains when the epoch function is
called with teacher=None.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def make_data(n=256):
    x = torch.randn(n, 10)
    y = (x[:, :3].sum(dim=1) > 0).long() + (x[:, 3] > 1).long()
    return x, y


def run_epoch(student, optimizer, data, teacher=None, max_steps=60, batch=32, temperature=2.0, alpha=0.5):
    x_all, y_all = data
    step = 0
    history = []
    while step < max_steps:
        idx = torch.randint(0, x_all.size(0), (batch,))
        inputs, targets = x_all[idx], y_all[idx]
        logits = student(inputs)
        if teacher is not None:
            with torch.no_grad():
                soft_targets = F.softmax(teacher(inputs) / temperature, dim=1)
            kd_term = F.kl_div(F.log_softmax(logits / temperature, dim=1), soft_targets,
                               reduction="batchmean") * temperature ** 2
        loss = F.cross_entropy(logits, targets)
        if teacher is not None:
            loss = (1 - alpha) * loss + alpha * kd_term
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history.append(loss.item())
        step += 1
    return history


def fit_teacher(data):
    teacher = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 3))
    opt = torch.optim.Adam(teacher.parameters(), lr=1e-2)
    run_epoch(teacher, opt, data, teacher=None, max_steps=150)
    teacher.eval()
    return teacher


if __name__ == "__main__":
    data = make_data()
    teacher = fit_teacher(data)

    student = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 3))
    opt = torch.optim.Adam(student.parameters(), lr=1e-2)
    w0 = student[0].weight.detach().clone()
    t0 = teacher[0].weight.detach().clone()
    hist = run_epoch(student, opt, data, teacher=teacher)
    assert not torch.equal(student[0].weight, w0)
    assert sum(hist[-10:]) / 10 < sum(hist[:10]) / 10
    assert torch.equal(teacher[0].weight, t0)

    plain = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 3))
    opt_plain = torch.optim.Adam(plain.parameters(), lr=1e-2)
    w0 = plain[0].weight.detach().clone()
    hist_plain = run_epoch(plain, opt_plain, data)
    assert not torch.equal(plain[0].weight, w0)
    assert sum(hist_plain[-10:]) / 10 < sum(hist_plain[:10]) / 10
    print("distillation loop ok: %.3f -> %.3f" % (hist[0], hist[-1]))
