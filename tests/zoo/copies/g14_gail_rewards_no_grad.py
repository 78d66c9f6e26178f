"""expect: none
dynamic: dismiss
source: https://github.com/toshikwa/gail-airl-ppo.pytorch/issues/11

An adversarial imitation learner has a discriminator and a policy. The discriminator is trained
with binary cross entropy to tell expert pairs from policy pairs. The policy's rewards are read
from the discriminator inside torch.no_grad() (the change the linked issue reports made learning
work), collected per step and packed with torch.tensor() into the reward vector used for the
returns. Those rewards are targets and must be constants; the policy gradient flows through the
stacked log-probabilities and the discriminator is trained by its own loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
obs_dim, n_act, T = 4, 3, 10

policy = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh(), nn.Linear(16, n_act))
disc = nn.Sequential(nn.Linear(obs_dim + n_act, 16), nn.Tanh(), nn.Linear(16, 1))
pol_opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
disc_opt = torch.optim.Adam(disc.parameters(), lr=1e-2)


def pair(states, actions):
    return torch.cat([states, F.one_hot(actions, n_act).float()], dim=-1)


states = torch.randn(T, obs_dim)
log_probs, actions = [], []
for s in states:
    dist = Categorical(logits=policy(s))
    a = dist.sample()
    actions.append(a)
    log_probs.append(dist.log_prob(a))
actions = torch.stack(actions)

step_rewards = []
with torch.no_grad():
    for sa in pair(states, actions):
        step_rewards.append(-F.logsigmoid(-disc(sa)).squeeze())
rewards = torch.tensor(step_rewards)
returns = rewards.flip(0).cumsum(0).flip(0)

policy_loss = -(torch.stack(log_probs) * (returns - returns.mean())).mean()
pol_opt.zero_grad()
policy_loss.backward()
pol_opt.step()

expert_states = torch.randn(T, obs_dim)
expert_actions = torch.randint(0, n_act, (T,))
logit_expert = disc(pair(expert_states, expert_actions))
logit_policy = disc(pair(states, actions))
disc_loss = F.binary_cross_entropy_with_logits(logit_expert, torch.ones_like(logit_expert)) + \
    F.binary_cross_entropy_with_logits(logit_policy, torch.zeros_like(logit_policy))
disc_opt.zero_grad()
disc_loss.backward()
disc_opt.step()

assert not rewards.requires_grad
assert policy[2].weight.grad is not None and policy[2].weight.grad.abs().sum() > 0
assert disc[2].weight.grad is not None and disc[2].weight.grad.abs().sum() > 0
print("policy and discriminator both train; rewards are constants on purpose")
