"""
expect: GL001 44
dynamic: confirm
source: none, invented

Multi-task regression with a hypernetwork: each task has a learned code, and `HyperHead` maps the code to the
weight matrix of the target network's last layer. `install_head` writes the generated matrix into the model
with `model.head.weight.data = hyper(code).view(...)` before every forward, and the optimizer holds both the
model and the hypernetwork (plus the task codes). Assigning to `.data` copies only the values: the
model's Parameter is a leaf with no link to `hyper(code)`, so the loss's gradient stops at model.head.weight
and never reaches the hypernetwork or the codes. The asserts show hyper/code grads are None and their values
unchanged after training, while a variant that uses the generated weight functionally (F.linear) trains them.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_TASKS, IN, HID, OUT, CODE = 6, 8, 32, 3, 4


class TargetNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(IN, HID), nn.ReLU())
        self.head = nn.Linear(HID, OUT)

    def forward(self, x):
        return self.head(self.body(x))


class HyperHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(CODE, 64), nn.ReLU(), nn.Linear(64, OUT * HID))

    def forward(self, code):
        return self.net(code)


def install_head(model, hyper, code):
    model.head.weight.data = hyper(code).view(OUT, HID)


def task_batch(task, n=32):
    g = torch.Generator().manual_seed(task)
    w = torch.randn(IN, OUT, generator=g)
    x = torch.randn(n, IN)
    return x, x @ w


def train(functional, steps=60):
    torch.manual_seed(0)
    model, hyper = TargetNet(), HyperHead()
    codes = nn.Parameter(torch.randn(N_TASKS, CODE))
    opt = torch.optim.Adam([*model.parameters(), *hyper.parameters(), codes], lr=1e-3)
    hyper_start = [p.detach().clone() for p in hyper.parameters()]
    codes_start = codes.detach().clone()
    for step in range(steps):
        task = step % N_TASKS
        x, y = task_batch(task)
        if functional:
            w = hyper(codes[task]).view(OUT, HID)
            pred = F.linear(model.body(x), w, model.head.bias)
        else:
            install_head(model, hyper, codes[task])
            pred = model(x)
        loss = F.mse_loss(pred, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    hyper_moved = any(not torch.equal(a, b) for a, b in zip(hyper_start, hyper.parameters()))
    return hyper, codes, hyper_moved, not torch.equal(codes_start, codes)


hyper, codes, hyper_moved, codes_moved = train(functional=False)
assert all(p.grad is None for p in hyper.parameters())
assert codes.grad is None
assert not hyper_moved and not codes_moved

hyper, codes, hyper_moved, codes_moved = train(functional=True)
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in hyper.parameters())
assert hyper_moved and codes_moved
print("ok: .data assignment leaves the hypernetwork untrained; the functional variant trains it")
