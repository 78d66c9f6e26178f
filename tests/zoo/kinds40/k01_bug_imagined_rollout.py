"""
expect: GL001 40
dynamic: confirm
source: kinds check 40, kind 1

A learned ocean-surface surrogate is trained on one-step targets plus a
multi-step consistency term. The rollout helper wraps the very model the
optimizer trains but detaches every state it produces, so the multi-step
term is a plain number: it moves the loss value but contributes no gradient.
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
    """Plain helper object that unrolls the dynamics model several steps."""

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


surrogate = Surrogate()
imaginer = Imaginer(surrogate, horizon=4)
opt = torch.optim.Adam(surrogate.parameters(), lr=1e-3)

s0 = torch.randn(8, 6)
next_true = torch.randn(8, 6)
traj_true = torch.randn(8, 4, 6)


def total_loss(with_rollout):
    one_step = ((surrogate(s0) - next_true) ** 2).mean()
    loss = one_step
    if with_rollout:
        imagined = imaginer.unroll(s0)
        rollout_term = ((imagined - traj_true) ** 2).mean()
        loss = loss + 0.5 * rollout_term
    return loss


def grads(with_rollout):
    opt.zero_grad()
    loss = total_loss(with_rollout)
    loss.backward()
    return loss.item(), [p.grad.clone() for p in surrogate.parameters()]


l_with, g_with = grads(True)
l_without, g_without = grads(False)
opt.step()

assert l_with > l_without + 1e-4, "rollout term does add to the loss value"
assert all(torch.allclose(a, b) for a, b in zip(g_with, g_without)), \
    "rollout term should contribute no gradient"
print("dead rollout term confirmed:", l_with, l_without)
