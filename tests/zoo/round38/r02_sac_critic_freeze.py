"""
expect: none
dynamic: dismiss
source: https://github.com/ray-project/ray/pull/65125

RLlib PR: TQC's actor-loss pass through the online critics leaked critic gradients, so the fix
copies SAC's pattern of freezing the critic parameters (requires_grad False) for that pass only.
This learner does the same: Q(s, pi(s)) is evaluated with frozen critic weights, the actor loss
flows through the critic into the sampled action and the actor, then the flags are restored.
Nothing here lost history: the switch is on parameters, not on a detached value. The asserts
show the actor is trained, the critic receives no actor-loss gradient, and the critic still
trains from its own Bellman loss afterwards.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Critic(nn.Module):
    def __init__(self, s=5, a=2):
        super().__init__()
        self.q = nn.Sequential(nn.Linear(s + a, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, s, a):
        return self.q(torch.cat([s, a], -1))


class Actor(nn.Module):
    def __init__(self, s=5, a=2):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(s, 32), nn.ReLU(), nn.Linear(32, a), nn.Tanh())

    def forward(self, s):
        return self.pi(s)


class frozen:
    """Context manager that stops parameter gradients for one module."""

    def __init__(self, module):
        self.params = list(module.parameters())

    def __enter__(self):
        for p in self.params:
            p.requires_grad_(False)

    def __exit__(self, *exc):
        for p in self.params:
            p.requires_grad_(True)


class Learner:
    def __init__(self):
        self.actor, self.critic = Actor(), Critic()
        self.target = Critic()
        self.target.load_state_dict(self.critic.state_dict())
        self.opt_pi = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.opt_q = torch.optim.Adam(self.critic.parameters(), lr=1e-3)

    def actor_grads(self, s):
        self.opt_pi.zero_grad()
        self.opt_q.zero_grad()
        with frozen(self.critic):
            loss_pi = -self.critic(s, self.actor(s)).mean()
        loss_pi.backward()
        return loss_pi

    def critic_grads(self, s, a, r, s2):
        with torch.no_grad():
            y = r + 0.99 * self.target(s2, self.actor(s2))
        loss_q = (self.critic(s, a) - y).pow(2).mean()
        self.opt_q.zero_grad()
        loss_q.backward()
        return loss_q


learner = Learner()
s, a = torch.randn(16, 5), torch.rand(16, 2) * 2 - 1
r, s2 = torch.randn(16, 1), torch.randn(16, 5)

learner.actor_grads(s)
assert all(p.grad is None for p in learner.critic.parameters())
assert learner.actor.pi[0].weight.grad is not None
assert learner.actor.pi[0].weight.grad.abs().sum() > 0
before = learner.actor.pi[0].weight.detach().clone()
learner.opt_pi.step()
assert not torch.equal(before, learner.actor.pi[0].weight)

# the critic is trainable again after the frozen pass
assert all(p.requires_grad for p in learner.critic.parameters())
learner.critic_grads(s, a, r, s2)
assert learner.critic.q[0].weight.grad.abs().sum() > 0
print("ok")
