import torch


def _update(student, teacher, xb, yb, criterion, opt):
    with torch.no_grad():
        t_logits = teacher(xb)
    s_logits = student(xb)
    loss = criterion(s_logits, t_logits, yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def fit_student(student, teacher, batches, criterion, lr=0.05):
    opt = torch.optim.SGD(student.parameters(), lr=lr)
    return [_update(student, teacher, xb, yb, criterion, opt) for xb, yb in batches]
