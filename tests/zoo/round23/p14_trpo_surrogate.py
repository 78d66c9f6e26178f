"""
expect: none
dynamic: dismiss
source: https://github.com/ajlangley/trpo-pytorch/issues/3

The issue asks whether `surrogate_loss(log_action_probs, log_action_probs.detach(),
advantages)` is wrong, since `exp(logp - logp.detach())` is identically 1 and the loss value
is just the mean advantage. The author explains it is intended: the value is constant but
the gradient at that point is the policy gradient, `E[grad log pi * A]`. The asserts show
the surrogate's gradient equals that of `mean(logp * A)` for every policy parameter, and
that maximizing it on fresh rollouts raises the average reward of a contextual bandit.
"""
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.set_num_threads(1)
torch.manual_seed(0)


class Policy(nn.Module):
    def __init__(self, obs=4, actions=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs, 32), nn.Tanh(), nn.Linear(32, actions))

    def forward(self, s):
        return Categorical(logits=self.net(s))


def reward(states, actions):
    best = states[:, :3].argmax(-1)
    return (actions == best).float()


class TRPOAgent:
    def __init__(self, policy):
        self.policy = policy

    def surrogate_loss(self, log_action_probs, imp_sample_probs, advantages):
        return torch.mean(torch.exp(log_action_probs - imp_sample_probs) * advantages)

    def rollout(self, n=256):
        states = torch.randn(n, 4)
        with torch.no_grad():
            actions = self.policy(states).sample()
        rewards = reward(states, actions)
        return states, actions, rewards, rewards - rewards.mean()

    def update(self, lr=0.5):
        states, actions, rewards, advantages = self.rollout()
        log_action_probs = self.policy(states).log_prob(actions)
        loss = self.surrogate_loss(log_action_probs, log_action_probs.detach(), advantages)
        grads = torch.autograd.grad(loss, list(self.policy.parameters()))
        with torch.no_grad():
            for p, g in zip(self.policy.parameters(), grads):
                p.add_(lr * g)                 # ascent on the surrogate
        return loss.item(), rewards.mean().item()


agent = TRPOAgent(Policy())
states, actions, _, adv = agent.rollout()
logp = agent.policy(states).log_prob(actions)
surr = agent.surrogate_loss(logp, logp.detach(), adv)
assert abs(surr.item() - adv.mean().item()) < 1e-6, "value is just the mean advantage"
g_surr = torch.autograd.grad(surr, list(agent.policy.parameters()), retain_graph=True)
g_pg = torch.autograd.grad((logp * adv).mean(), list(agent.policy.parameters()))
for a, b in zip(g_surr, g_pg):
    assert torch.allclose(a, b, atol=1e-6) and a.abs().sum() > 0

history = [agent.update()[1] for _ in range(60)]
assert sum(history[-10:]) / 10 > sum(history[:10]) / 10 + 0.2, (history[:3], history[-3:])
print("p14 ok: exp(logp - logp.detach()) carries the policy gradient",
      sum(history[:10]) / 10, sum(history[-10:]) / 10)
