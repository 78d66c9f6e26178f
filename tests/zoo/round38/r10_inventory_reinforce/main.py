"""
expect: none
dynamic: dismiss
source: https://github.com/isfons/rl_inventory_opt/blob/HEAD/algorithms/reinforce.py

Public coursework code for inventory control with REINFORCE plus a value baseline. It has the
telltales of a python roundtrip: the sampled action goes to a numpy simulator via
.detach().numpy(), and the discounted returns are rebuilt with torch.tensor(list). Neither cuts
anything the losses train: the policy loss uses the stored log-probabilities (still attached to
the policy), the returns are built from environment rewards, and advantages.detach() is the usual
baseline stop-gradient. The asserts show the policy gets gradient only from the policy loss, the
value net only from the value loss, and both sets of weights move.
"""
import numpy as np
import torch
from reinforce import PolicyNetwork, ValueNetwork, run_episode, reinforce_update

torch.manual_seed(0)
torch.set_num_threads(1)


class InventoryEnv:
    """Single product: order quantity in, holding/shortage cost out."""

    def __init__(self, horizon=12, seed=0):
        self.rng = np.random.default_rng(seed)
        self.horizon = horizon

    def reset(self):
        self.t, self.stock = 0, 5.0
        return np.array([self.stock / 10, 0.0], dtype=np.float32)

    def step(self, action):
        order = float(np.clip(action[0], 0, 3)) * 3
        demand = self.rng.poisson(4)
        self.stock = self.stock + order - demand
        reward = -0.1 * max(self.stock, 0) - 1.0 * max(-self.stock, 0) - 0.05 * order
        self.stock = max(self.stock, 0.0)
        self.t += 1
        obs = np.array([self.stock / 10, self.t / self.horizon], dtype=np.float32)
        return obs, reward, self.t >= self.horizon


env = InventoryEnv()
policy, value = PolicyNetwork(2, 1), ValueNetwork(2)
opt_pi = torch.optim.Adam(policy.parameters(), lr=1e-2)
opt_v = torch.optim.Adam(value.parameters(), lr=1e-2)

p0 = policy.fc1.weight.detach().clone()
v0 = value.fc1.weight.detach().clone()
traj = run_episode(env, policy, value, action_std=0.5)
reinforce_update(traj, opt_pi, opt_v)
assert policy.fc1.weight.grad.abs().sum() > 0
assert value.fc1.weight.grad.abs().sum() > 0
assert not torch.equal(p0, policy.fc1.weight) and not torch.equal(v0, value.fc1.weight)

# the policy loss alone reaches the policy and not the value net (baseline is detached)
traj = run_episode(env, policy, value, action_std=0.5)
logprobs = torch.stack(traj["logprobs"]).squeeze()
values = torch.stack(traj["values"]).squeeze()
policy.zero_grad()
value.zero_grad()
(-(values.detach() * logprobs).mean()).backward()
assert policy.fc2.weight.grad.abs().sum() > 0
assert value.fc1.weight.grad is None
print("ok")
