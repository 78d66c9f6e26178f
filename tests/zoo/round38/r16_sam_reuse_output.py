"""
expect: GL005 57
dynamic: confirm
source: https://github.com/davda54/sam/issues/45

A SAM user computed `output = model(images)` once and called
`criterion(output, target).backward()` again after `optimizer.first_step()`,
skipping the second forward; with `retain_graph=True` added to get past the
"backward through the graph a second time" error, the second backward walks the
old graph whose saved weights `first_step` has just moved in place. The asserts
show the buggy step raises the version-counter error, while the documented
two-forward variant trains (its loss falls over 20 steps).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_optimizer, rho=0.05, **kw):
        super().__init__(params, dict(rho=rho, **kw))
        self.base_optimizer = base_optimizer(self.param_groups, **kw)

    @torch.no_grad()
    def first_step(self, zero_grad=False):
        norm = torch.norm(torch.stack([p.grad.norm(2) for g in self.param_groups
                                       for p in g["params"] if p.grad is not None]), 2)
        for group in self.param_groups:
            scale = group["rho"] / (norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                e_w = p.grad * scale
                p.add_(e_w)  # climb to the local worst case
                self.state[p]["e_w"] = e_w
        if zero_grad:
            self.zero_grad()

    @torch.no_grad()
    def second_step(self, zero_grad=False):
        for group in self.param_groups:
            for p in group["params"]:
                if "e_w" in self.state[p]:
                    p.sub_(self.state[p]["e_w"])
        self.base_optimizer.step()
        if zero_grad:
            self.zero_grad()


def train_step_reusing_output(model, optimizer, x, y):
    output = model(x)
    loss = F.cross_entropy(output, y)
    loss.backward(retain_graph=True)
    optimizer.first_step(zero_grad=True)
    F.cross_entropy(output, y).backward()  # no second forward
    optimizer.second_step(zero_grad=True)
    return loss.item()


def train_step_two_forwards(model, optimizer, x, y):
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    optimizer.first_step(zero_grad=True)
    F.cross_entropy(model(x), y).backward()
    optimizer.second_step(zero_grad=True)
    return loss.item()


def make():
    torch.manual_seed(1)
    m = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
    return m, SAM(m.parameters(), torch.optim.SGD, lr=0.1, rho=0.5)


x = torch.randn(64, 10)
y = torch.randint(0, 4, (64,))

model, opt = make()
raised = False
try:
    train_step_reusing_output(model, opt, x, y)
except RuntimeError as e:
    raised = "modified by an inplace operation" in str(e)
assert raised

model, opt = make()
losses = [train_step_two_forwards(model, opt, x, y) for _ in range(20)]
assert losses[-1] < losses[0]
print("ok", losses[0], losses[-1])
