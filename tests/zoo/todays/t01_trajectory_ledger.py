"""expect: GL002 36
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/155983

A plain Python class (not an nn.Module) records each step's log-probability as it is
produced by the policy, and a later method turns the recorded list back into one tensor
with torch.tensor(...). That call copies the values into a fresh leaf with no autograd
history, so the REINFORCE term is a constant; the loss still backpropagates through the
critic's value term, so training runs without an error while the policy never learns.
"""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class TrajectoryLedger:
    """Collects what happened during one rollout."""

    def __init__(self):
        self.step_logps = []
        self.gains = []
        self.estimates = []

    def note(self, logp, gain, estimate):
        self.step_logps.append(logp)
        self.gains.append(gain)
        self.estimates.append(estimate)

    def surrogate(self, discount=0.95):
        running, targets = 0.0, []
        for g in reversed(self.gains):
            running = g + discount * running
            targets.insert(0, running)
        targets = torch.tensor(targets)
        values = torch.cat(self.estimates)
        logp_vec = torch.tensor(self.step_logps)
        advantage = (targets - values).detach()
        actor_term = -(logp_vec * advantage).sum()
        critic_term = (targets - values).pow(2).mean()
        return actor_term + critic_term


torch.manual_seed(1)
pi_net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 3))
v_net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.SGD(list(pi_net.parameters()) + list(v_net.parameters()), lr=0.05)

before = pi_net[2].weight.detach().clone()
ledger = TrajectoryLedger()
for _ in range(6):
    obs = torch.randn(1, 4)
    dist = Categorical(logits=pi_net(obs))
    act = dist.sample()
    ledger.note(dist.log_prob(act).squeeze(), float(act.item() == 1), v_net(obs).view(1))

opt.zero_grad()
objective = ledger.surrogate()
objective.backward()
opt.step()

print("objective:", objective.item())
assert v_net[0].weight.grad is not None, "critic should train"
assert all(p.grad is None for p in pi_net.parameters()), "policy got a gradient"
assert torch.equal(before, pi_net[2].weight), "policy weights moved"
print("policy received no gradient: the log-probabilities were copied")
