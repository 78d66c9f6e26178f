"""
expect: none
dynamic: dismiss
source: kinds check 40, kind 3

A continual-learning learner snapshots its weights after task A via
state_dict() as a fixed anchor (constant on purpose), then trains task B
with an EWC-style penalty sum F * (w - w_anchor)^2 over named_parameters().
The current weights stay in the graph, so the penalty pulls them back.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class EWCLearner:
    def __init__(self, model, lam=2.0):
        self.model = model
        self.lam = lam
        self.anchor = None
        self.fisher = None
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-2)

    def consolidate(self, x, y):
        self.anchor = {k: v.clone() for k, v in self.model.state_dict().items()}
        self.model.zero_grad()
        nn.functional.mse_loss(self.model(x), y).backward()
        self.fisher = {n: p.grad.detach() ** 2 + 1e-3 for n, p in self.model.named_parameters()}
        self.model.zero_grad()

    def penalty(self):
        total = 0.0
        for name, w in self.model.named_parameters():
            total = total + (self.fisher[name] * (w - self.anchor[name]) ** 2).sum()
        return 0.5 * self.lam * total

    def grads(self, x, y, use_penalty):
        self.opt.zero_grad()
        loss = nn.functional.mse_loss(self.model(x), y)
        if use_penalty:
            loss = loss + self.penalty()
        loss.backward()
        return [p.grad.clone() for p in self.model.parameters()]


model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
learner = EWCLearner(model)
xa, ya = torch.randn(32, 4), torch.randn(32, 2)
xb, yb = torch.randn(32, 4), torch.randn(32, 2)

learner.consolidate(xa, ya)
for _ in range(5):  # drift on task B so the penalty is non-trivial
    learner.opt.zero_grad()
    nn.functional.mse_loss(model(xb), yb).backward()
    learner.opt.step()

g_pen = learner.grads(xb, yb, use_penalty=True)
g_plain = learner.grads(xb, yb, use_penalty=False)
assert any(not torch.allclose(a, b) for a, b in zip(g_pen, g_plain)), \
    "EWC penalty should change the gradient"
print("EWC anchor from state_dict, live weights from named_parameters: penalty carries gradient")
