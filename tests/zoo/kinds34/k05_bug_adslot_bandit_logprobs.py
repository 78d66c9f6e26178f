"""
expect: GL002 42
dynamic: confirm
source: kinds check 34, kind 3

An ad-slot contextual bandit: a collector stores each chosen ad's log-probability
and the critic's estimate as plain floats (.item()). The learner's update rebuilds
the log-probabilities with torch.tensor(..., requires_grad=True), so the policy
term backpropagates into a fresh leaf and the policy network gets no gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_CTX, N_ADS = 10, 5


def collect(policy, critic, n=64):
    batch = {"contexts": [], "actions": [], "log_probs": [], "values": [], "rewards": []}
    click_rate = torch.rand(N_ADS)
    for _ in range(n):
        ctx = torch.randn(N_CTX)
        dist = torch.distributions.Categorical(logits=policy(ctx))
        a = dist.sample()
        batch["contexts"].append(ctx.tolist())
        batch["actions"].append(int(a))
        batch["log_probs"].append(dist.log_prob(a).item())
        batch["values"].append(critic(ctx).item())
        batch["rewards"].append(float(torch.rand(()) < click_rate[a]))
    return batch


class BanditLearner:
    def __init__(self, policy, critic, lr=0.05):
        self.policy, self.critic = policy, critic
        self.opt = torch.optim.SGD(list(policy.parameters()) + list(critic.parameters()), lr=lr)

    def update(self, batch):
        ctx = torch.tensor(batch["contexts"])
        rewards = torch.tensor(batch["rewards"])
        log_probs = torch.tensor(batch["log_probs"], requires_grad=True)
        advantages = rewards - torch.tensor(batch["values"])
        policy_loss = -(log_probs * advantages).mean()
        value_loss = F.mse_loss(self.critic(ctx).squeeze(-1), rewards)
        self.opt.zero_grad()
        (policy_loss + value_loss).backward()
        self.opt.step()
        return log_probs


policy, critic = nn.Linear(N_CTX, N_ADS), nn.Linear(N_CTX, 1)
learner = BanditLearner(policy, critic)
batch = collect(policy, critic)
leaf = learner.update(batch)

assert leaf.grad is not None and leaf.grad.abs().sum() > 0  # the gradient stops at the rebuilt leaf
assert all(p.grad is None for p in policy.parameters())  # the policy never learns
assert all(p.grad is not None for p in critic.parameters())
print("policy gradient ended at a rebuilt leaf; policy.grad is None")
