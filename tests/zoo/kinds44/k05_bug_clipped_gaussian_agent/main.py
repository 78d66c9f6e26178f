"""
expect: GL002 agent.py:42
dynamic: confirm
source: kinds check 44, kind 3

A script trains an actor-critic agent (agent.py) on a one-step reaching task:
observations are random goal positions and the reward is the negative distance from
the sampled action to the goal. `ReachingAgent.act()` takes the policy network's mean out
to NumPy to clip and scale it, rebuilds the mean with `torch.from_numpy`, and stores the
Normal log-probability in `self.log_prob`; `learn()` adds that term to the value
network's regression loss under one optimizer holding both networks. Because the mean
tensor has no history, the policy never gets a gradient: the asserts check that every
policy parameter's `.grad` is None and its values are unchanged after 150 updates, while
the value network did train.
"""
import numpy as np
import torch

from agent import ReachingAgent

rng = np.random.default_rng(5)
torch.manual_seed(5)
OBS_DIM, ACT_DIM, BATCH = 4, 2, 32

agent = ReachingAgent(OBS_DIM, ACT_DIM)
policy_before = [p.detach().clone() for p in agent.policy.parameters()]
value_before = [p.detach().clone() for p in agent.value.parameters()]

for step in range(150):
    obs = rng.uniform(-1, 1, size=(BATCH, OBS_DIM)).astype(np.float32)
    goal = 1.5 * obs[:, :ACT_DIM]
    action = agent.act(obs)
    reward = -np.linalg.norm(action - goal, axis=-1)
    agent.learn(reward)

assert all(p.grad is None for p in agent.policy.parameters())
assert all(torch.equal(a, p) for a, p in zip(policy_before, agent.policy.parameters()))
assert all(p.grad is not None for p in agent.value.parameters())
assert any(not torch.equal(a, p) for a, p in zip(value_before, agent.value.parameters()))
print("training loop finished")
