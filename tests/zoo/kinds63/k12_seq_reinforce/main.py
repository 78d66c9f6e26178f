"""
expect: none
dynamic: dismiss
source: none, invented

REINFORCE fine-tuning of a tiny autoregressive token policy towards a target pattern. learner.py's
`ReinforceLearner.update` samples a batch of sequences, appends the batch's mean reward to the attribute list
`self.mean_rewards`, builds a baseline from the recent entries of that list, and backpropagates the
policy-gradient loss with `retain_graph=True` before stepping Adam. The list is never cleared, but it only
ever holds Python floats from `.item()`, so no graph survives from one call to the next: each backward covers
only the sequences sampled in that call. The asserts show the list holds plain floats, repeated updates run
without error, the policy's gradients are non-zero, and the mean reward climbs close to the maximum.
"""
import torch

from learner import ReinforceLearner, TokenPolicy

torch.manual_seed(0)
torch.set_num_threads(1)

TARGET = torch.tensor([3, 1, 4, 1, 5])


def pattern_reward(tokens):
    return (tokens == TARGET).float().sum(1)


policy = TokenPolicy()
learner = ReinforceLearner(policy, pattern_reward)
history = [learner.update() for _ in range(200)]

assert len(learner.mean_rewards) == 200
assert all(isinstance(r, float) for r in learner.mean_rewards)
assert policy.mlp[2].weight.grad is not None and policy.mlp[2].weight.grad.abs().sum() > 0
early, late = sum(history[:10]) / 10, sum(history[-10:]) / 10
assert late > 4.0 and late > early + 2.0, (early, late)
print(f"ok: mean reward {early:.2f} -> {late:.2f} (max 5)")
