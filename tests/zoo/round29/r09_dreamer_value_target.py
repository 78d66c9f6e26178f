"""
expect: none
dynamic: dismiss
source: https://github.com/danijar/dreamer/issues/3

Value learning in imagination: the critic regresses onto lambda-returns computed
from the imagined rewards and its own bootstrap values, and those targets are
detached (stop-gradient) so the value loss is a per-step regression, exactly as
the maintainer explains. The actor is trained separately through the same returns
without a detach. The asserts show the critic gets gradient and its loss drops,
the detached target gives the critic no gradient through the target side, and the
actor receives gradient from its own loss.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def lambda_return(rewards, values, gamma=0.99, lam=0.95):
    out, nxt = [], values[-1]
    for t in reversed(range(rewards.size(0))):
        nxt = rewards[t] + gamma * ((1 - lam) * values[t] + lam * nxt)
        out.append(nxt)
    return torch.stack(out[::-1])


class Learner:
    def __init__(self):
        self.dyn = nn.Linear(6 + 2, 6)
        self.reward = nn.Linear(6, 1)
        for p in list(self.dyn.parameters()) + list(self.reward.parameters()):
            p.requires_grad_(False)
        self.actor = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 2), nn.Tanh())
        self.critic = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 1))
        self.opt_v = torch.optim.Adam(self.critic.parameters(), 3e-3)

    def rollout(self, s, horizon=6):
        states = []
        for _ in range(horizon):
            s = torch.tanh(self.dyn(torch.cat([s, self.actor(s)], -1)))
            states.append(s)
        return torch.stack(states)

    def losses(self, start):
        states = self.rollout(start)
        returns = lambda_return(self.reward(states), self.critic(states))
        actor_loss = -returns.mean()
        target = returns.detach()
        value_loss = ((self.critic(states.detach()) - target) ** 2).mean()
        return actor_loss, value_loss


L = Learner()
start = torch.randn(16, 6)
actor_loss, value_loss = L.losses(start)
value_loss.backward(retain_graph=True)
assert all(p.grad is None for p in L.actor.parameters())
assert all(p.grad.abs().sum() > 0 for p in L.critic.parameters())
L.critic.zero_grad()
actor_loss.backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in L.actor.parameters())

v0 = L.losses(start)[1].item()
for _ in range(40):
    L.opt_v.zero_grad(); L.losses(start)[1].backward(); L.opt_v.step()
assert L.losses(start)[1].item() < v0
print("ok")
