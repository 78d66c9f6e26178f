"""
expect: none
dynamic: dismiss
source: kinds check 25, kind 4

REINFORCE on a contextual bandit with a running baseline. After each iteration the mean return
is carried over as a Python float (`.item()`) and rebuilt as a tensor next iteration; it is
subtracted from the returns before they weight the attached log-probabilities. A cut baseline
is exactly what the estimator wants: the loss still flows through log_prob, so the policy
trains and its reward goes up.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

N_ARMS, OBS = 4, 8
policy = nn.Sequential(nn.Linear(OBS, 32), nn.ReLU(), nn.Linear(32, N_ARMS))
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
arm_w = torch.randn(OBS, N_ARMS)

prev_mean_return = 0.0
rewards = []
for it in range(200):
    obs = torch.randn(64, OBS)
    dist = torch.distributions.Categorical(logits=policy(obs))
    actions = dist.sample()
    returns = (actions == (obs @ arm_w).argmax(-1)).float()
    baseline = torch.tensor(prev_mean_return)
    loss = -((returns - baseline) * dist.log_prob(actions)).mean()
    opt.zero_grad()
    loss.backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in policy.parameters())
    opt.step()
    prev_mean_return = 0.9 * prev_mean_return + 0.1 * returns.mean().item()
    rewards.append(returns.mean().item())

first, last = sum(rewards[:20]) / 20, sum(rewards[-20:]) / 20
assert last > first + 0.2, (first, last)
print("ok: mean reward", round(first, 3), "->", round(last, 3))
