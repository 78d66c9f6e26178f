"""
expect: GL001 37
dynamic: confirm
source: kinds check 45, kind 2

Semi-supervised regression with the networks kept in an attribute dictionary.
Only `nets.student` is optimized, and its consistency term (agreement between
predictions on two noisy views) is computed under torch.no_grad() and added to
the loss, so the student never receives any gradient from that term.
"""
import torch
import torch.nn as nn


class AttrDict(dict):
    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError as err:
            raise AttributeError(key) from err


def make_nets():
    torch.manual_seed(0)
    return AttrDict(
        student=nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1)),
        scaler=nn.Linear(6, 6),
    )


def step(nets, opt, x, y, unlabeled, buggy):
    opt.zero_grad()
    task = nn.functional.mse_loss(nets.student(x), y)
    view_a = unlabeled + 0.1 * torch.randn_like(unlabeled)
    view_b = unlabeled + 0.1 * torch.randn_like(unlabeled)
    if buggy:
        with torch.no_grad():
            consistency = (nets.student(view_a) - nets.student(view_b)).pow(2).mean()
    else:
        consistency = (nets.student(view_a) - nets.student(view_b)).pow(2).mean()
    loss = task + 5.0 * consistency
    loss.backward()
    grads = [p.grad.clone() for p in nets.student.parameters()]
    opt.step()
    return task, grads


torch.manual_seed(1)
x, y = torch.randn(32, 6), torch.randn(32, 1)
unlabeled = torch.randn(128, 6)

results = {}
for buggy in (True, False):
    nets = make_nets()
    opt = torch.optim.SGD(nets.student.parameters(), lr=0.05)
    torch.manual_seed(2)
    _, grads = step(nets, opt, x, y, unlabeled, buggy)
    # gradient of the task term alone, for comparison
    ref = make_nets()
    nn.functional.mse_loss(ref.student(x), y).backward()
    task_only = [p.grad for p in ref.student.parameters()]
    results[buggy] = all(torch.allclose(g, t) for g, t in zip(grads, task_only))

assert results[True], "buggy: gradient should equal the task-only gradient"
assert not results[False], "intended: consistency term should change the gradient"
print("no_grad consistency term contributes no gradient; intended version does")
