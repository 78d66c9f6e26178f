"""
expect: none
dynamic: dismiss
source: kinds check 40, kind 1

Same helper shape, but the object wraps a frozen, pretrained prior dynamics
model that no optimizer touches. Detaching its rollout is deliberate: it is a
fixed target, and the loss compares the trained model's own rollout to it, so
the term carries gradient into the trained model only.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Surrogate(nn.Module):
    def __init__(self, dim=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 16), nn.Tanh(), nn.Linear(16, dim))

    def forward(self, s):
        return s + 0.1 * self.net(s)


class Imaginer:
    """Plain helper object that unrolls a dynamics model several steps."""

    def __init__(self, dynamics, horizon=4):
        self.dynamics = dynamics
        self.horizon = horizon

    def unroll(self, s0):
        states = []
        s = s0
        for _ in range(self.horizon):
            s = self.dynamics(s)
            states.append(s)
        traj = torch.stack(states, dim=1)
        return traj.detach()


prior = Surrogate()
prior.requires_grad_(False)
prior.eval()
prior_imaginer = Imaginer(prior, horizon=4)

student = Surrogate()
opt = torch.optim.Adam(student.parameters(), lr=1e-3)

s0 = torch.randn(8, 6)
next_true = torch.randn(8, 6)


def student_rollout(s, horizon=4):
    out = []
    for _ in range(horizon):
        s = student(s)
        out.append(s)
    return torch.stack(out, dim=1)


def grads(with_prior):
    opt.zero_grad()
    loss = ((student(s0) - next_true) ** 2).mean()
    if with_prior:
        prior_traj = prior_imaginer.unroll(s0)
        loss = loss + 0.5 * ((student_rollout(s0) - prior_traj) ** 2).mean()
    loss.backward()
    return [p.grad.clone() for p in student.parameters()]


g_with = grads(True)
g_without = grads(False)
opt.step()

assert any(not torch.allclose(a, b) for a, b in zip(g_with, g_without)), \
    "prior-matching term should change the student's gradient"
assert all(p.grad is None for p in prior.parameters()), "prior stays frozen"
print("prior term carries gradient into the student; prior untouched")
