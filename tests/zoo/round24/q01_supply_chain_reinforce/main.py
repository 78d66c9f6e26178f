"""
expect: GL002 reinforce_update.py:21
dynamic: confirm
source: https://github.com/david-zip/supply_chain_optimization/blob/e87245d05da5fedff5b04fbcb4c36d0b396afc30/algorithms/reinforce.py

A REINFORCE agent for supply-chain ordering (marked "NEEDS FIXING" in the repo) turns the
policy's order outputs into a numpy array and rebuilds them with torch.tensor(...,
requires_grad=True) before taking log-probabilities. Here the rollout records each period's
order mean as a Python float (the env needs a number) and the update helper in
reinforce_update.py rebuilds them the same way. The loss backpropagates into a fresh leaf, so
the policy network gets no gradient; the asserts show its weights never move while a version
that keeps the graph (torch.stack of the mean tensors) does train.
"""
import copy

import torch
import torch.nn as nn

from reinforce_update import reinforce_step, discounted_returns

torch.manual_seed(0)
torch.set_num_threads(1)


class InventoryEnv:
    """Retailer with one product: order, receive next period, sell against random demand."""

    def __init__(self, price=4.0, holding=0.5, unit_cost=2.0, horizon=20):
        self.price, self.holding, self.unit_cost, self.horizon = price, holding, unit_cost, horizon

    def reset(self):
        self.t, self.stock, self.pipeline = 0, 5.0, 0.0
        return self.state()

    def state(self):
        return torch.tensor([self.stock / 10.0, self.pipeline / 10.0])

    def step(self, order):
        order = max(order, 0.0)
        self.stock += self.pipeline
        self.pipeline = order
        demand = float(torch.randint(2, 9, (1,)).item())
        sales = min(self.stock, demand)
        self.stock -= sales
        reward = self.price * sales - self.holding * self.stock - self.unit_cost * order
        self.t += 1
        return self.state(), reward, self.t >= self.horizon


class OrderPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1), nn.Softplus())

    def forward(self, s):
        return self.net(s).squeeze(-1) * 5.0


def rollout(policy, env, sigma, keep_graph=False):
    s, done = env.reset(), False
    rewards, means, actions = [], [], []
    while not done:
        mu = policy(s)
        a = torch.distributions.Normal(mu.detach(), sigma).sample()
        s, r, done = env.step(a.item())
        rewards.append(r)
        means.append(mu if keep_graph else mu.item())
        actions.append(a.item())
    return rewards, means, actions


sigma = 1.0
env = InventoryEnv()
policy = OrderPolicy()
reference = copy.deepcopy(policy)
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
w0 = [p.detach().clone() for p in policy.parameters()]

for episode in range(5):
    rewards, means, actions = rollout(policy, env, sigma)
    reinforce_step(opt, rewards, means, actions, sigma)
    assert all(p.grad is None for p in policy.parameters())

# Bug: the policy never changed and never received a gradient.
assert all(torch.equal(a, b) for a, b in zip(w0, policy.parameters()))

# Fixed variant: keep the order means as graph tensors and stack them.
fixed = copy.deepcopy(reference)
opt_f = torch.optim.Adam(fixed.parameters(), lr=1e-2)
for episode in range(5):
    rewards, means, actions = rollout(fixed, env, sigma, keep_graph=True)
    returns = discounted_returns(rewards, 0.95)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    logp = torch.distributions.Normal(torch.stack(means), sigma).log_prob(torch.tensor(actions))
    loss = -(logp * returns).sum()
    opt_f.zero_grad()
    loss.backward()
    assert all(p.grad is not None for p in fixed.parameters())
    opt_f.step()
assert any(not torch.equal(a, b) for a, b in zip(w0, fixed.parameters()))
print("q01 ok: rebuilt order means cut the policy out of the REINFORCE loss")
