"""
expect: none
dynamic: dismiss
source: https://github.com/toshikwa/sac-discrete.pytorch/issues/24

A reader asked why `calc_policy_loss()` evaluates the online critic under `torch.no_grad()`; the
author answered that the critic values do not depend on the policy parameters, so the policy
gradient flows through the action probabilities and log-probabilities only. This program rebuilds the
discrete SAC agent in agent.py (critic target under no_grad, critic values under no_grad in the
policy loss, detached entropies for the temperature loss, in-place soft update under no_grad) and
checks that the policy, the critic and the temperature all train: the policy gets non-zero
gradients and its weights move, the critic receives no gradient from the policy loss but learns from
its own TD loss, and log_alpha changes.
"""
import torch

from agent import SacDiscreteAgent

torch.manual_seed(0)

OBS, ACTIONS, N = 6, 4, 64


def sample_batch():
    obs = torch.randn(N, OBS)
    actions = torch.randint(0, ACTIONS, (N,))
    rewards = (actions == 1).float() + 0.1 * torch.randn(N)
    next_obs = obs + 0.1 * torch.randn(N, OBS)
    dones = (torch.rand(N) < 0.05).float()
    return obs, actions, rewards, next_obs, dones


agent = SacDiscreteAgent(OBS, ACTIONS)
policy0 = [p.detach().clone() for p in agent.policy.parameters()]
critic0 = [p.detach().clone() for p in agent.online_critic.parameters()]
target0 = [p.detach().clone() for p in agent.target_critic.parameters()]
alpha0 = agent.log_alpha.detach().clone()

for _ in range(5):
    info = agent.learn(sample_batch())
    assert all(g is not None and g.abs().sum() > 0 for g in info["policy_grad"])
    assert all(g is None for g in info["critic_grad_from_policy"]), "policy loss leaves the critic alone"

assert all(not torch.equal(a, b.detach()) for a, b in zip(policy0, agent.policy.parameters()))
assert all(not torch.equal(a, b.detach()) for a, b in zip(critic0, agent.online_critic.parameters()))
assert all(not torch.equal(a, b.detach()) for a, b in zip(target0, agent.target_critic.parameters()))
assert not torch.equal(alpha0, agent.log_alpha.detach())

obs = sample_batch()[0]
with torch.no_grad():
    probs_before, _ = agent.policy(obs)
for _ in range(15):
    agent.learn(sample_batch())
with torch.no_grad():
    probs_after, _ = agent.policy(obs)
assert probs_after[:, 1].mean() > probs_before[:, 1].mean(), "policy shifts toward the rewarded action"
print("ok: no_grad critic values in the policy loss are intended; every part trains")
