"""
expect: GL005 59
dynamic: confirm
source: https://github.com/cross32768/Dreamer_PyTorch/issues/2

The report: in the Dreamer training loop the action-model update fails with "one of the
variables needed for gradient computation has been modified by an inplace operation
... output 0 of AsStridedBackward0, is at version 2"; a commenter traced it to the value
model being stepped before action_loss.backward(). This program rebuilds the imagination
update: lambda targets come from the value model evaluated on imagined states, the value
loss regresses on detached states and targets, value_opt.step() runs, and only then is the action
loss (the negative mean of those same targets) backpropagated. The asserts catch the
RuntimeError mentioning "inplace", and check that stepping the value model after the action
backward trains both models.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Imagination:
    def __init__(self, state_dim=8, act_dim=2, horizon=5, gamma=0.99, lam=0.95):
        self.action_model = nn.Sequential(nn.Linear(state_dim, 32), nn.ELU(), nn.Linear(32, act_dim))
        self.value_model = nn.Sequential(nn.Linear(state_dim, 32), nn.ELU(), nn.Linear(32, 1))
        self.transition = nn.Linear(state_dim + act_dim, state_dim)
        for p in self.transition.parameters():
            p.requires_grad_(False)
        self.action_opt = torch.optim.Adam(self.action_model.parameters(), lr=1e-3)
        self.value_opt = torch.optim.Adam(self.value_model.parameters(), lr=1e-3)
        self.horizon, self.gamma, self.lam = horizon, gamma, lam

    def imagine(self, start):
        states, s = [], start
        for _ in range(self.horizon):
            a = torch.tanh(self.action_model(s))
            s = torch.tanh(self.transition(torch.cat([s, a], dim=1)))
            states.append(s)
        return torch.stack(states)

    def lambda_targets(self, states):
        values = self.value_model(states)
        rewards = states.mean(dim=-1, keepdim=True)
        ret = values[-1]
        outs = []
        for t in reversed(range(self.horizon)):
            ret = rewards[t] + self.gamma * ((1 - self.lam) * values[t] + self.lam * ret)
            outs.append(ret)
        return torch.stack(outs[::-1])

    def update_value_first(self, start):
        states = self.imagine(start)
        targets = self.lambda_targets(states)
        value_pred = self.value_model(states.detach())
        value_loss = 0.5 * F.mse_loss(value_pred, targets.detach())
        self.value_opt.zero_grad()
        value_loss.backward()
        self.value_opt.step()

        action_loss = -targets.mean()
        self.action_opt.zero_grad()
        action_loss.backward()
        self.action_opt.step()

    def update_action_first(self, start):
        states = self.imagine(start)
        targets = self.lambda_targets(states)
        value_pred = self.value_model(states.detach())
        value_loss = 0.5 * F.mse_loss(value_pred, targets.detach())
        action_loss = -targets.mean()
        self.action_opt.zero_grad()
        action_loss.backward()
        self.action_opt.step()
        self.value_opt.zero_grad()
        value_loss.backward()
        self.value_opt.step()


start = torch.randn(16, 8)
learner = Imagination()
raised = False
try:
    learner.update_value_first(start)
except RuntimeError as err:
    raised = "inplace" in str(err)
assert raised

learner = Imagination()
a0 = [p.detach().clone() for p in learner.action_model.parameters()]
v0 = [p.detach().clone() for p in learner.value_model.parameters()]
learner.update_action_first(start)
assert any(not torch.equal(a, b) for a, b in zip(a0, learner.action_model.parameters()))
assert any(not torch.equal(a, b) for a, b in zip(v0, learner.value_model.parameters()))
print("ok: value step before the action backward raises the in-place error")
