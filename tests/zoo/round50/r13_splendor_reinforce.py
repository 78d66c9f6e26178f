"""
expect: GL002 70
dynamic: confirm
source: https://github.com/thaiv28/SplendorRL/blob/HEAD/splendor/algos/reinforce.py

Multi-agent REINFORCE for a board game with illegal-move masking: a shared policy network gives a
masked categorical distribution, each agent's batch yields a policy-gradient loss
-(log_prob * return).mean(), and the per-agent losses are summed and backpropagated. Before
summing, every agent's loss is copied with torch.tensor(loss, requires_grad=True), which makes a
fresh leaf holding the same number: the sum has a gradient, backward runs without complaint and
the returned losses look normal, but nothing flows back into the policy. The asserts show that
after update() every policy parameter still has grad None and is bit-for-bit unchanged, while the
version that stacks the original loss tensors moves the weights and raises the log-probability of
the rewarded actions.
"""
import warnings
from dataclasses import dataclass

import torch
import torch.nn as nn

warnings.filterwarnings("ignore", message="To copy construct from a tensor")
torch.manual_seed(0)
torch.set_num_threads(1)

OBS, ACTIONS = 12, 6


class MaskedPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS, 32), nn.ReLU(), nn.Linear(32, ACTIONS))

    def distribution(self, obs, masks):
        logits = self.body(obs).masked_fill(~masks, float("-inf"))
        return torch.distributions.Categorical(logits=logits)


@dataclass
class Batch:
    obs: dict
    actions: dict
    masks: dict
    returns: dict


class Algorithm:
    def __init__(self, policy, optimizer="adam", lr=1e-2):
        self.policy = policy
        opt_cls = {"adam": torch.optim.Adam, "sgd": torch.optim.SGD}[optimizer]
        self.optimizer = opt_cls(policy.parameters(), lr=lr)


class Reinforce(Algorithm):
    def __init__(self, policy, optimizer="adam", lr=1e-2, rebuild=True):
        super().__init__(policy, optimizer, lr)
        self.rebuild = rebuild

    def compute_loss(self, obs, masks, actions, returns):
        logp = self.policy.distribution(obs, masks).log_prob(actions)
        return -(logp * returns).mean()

    def update(self, batch):
        self.optimizer.zero_grad()
        per_agent = {}
        for agent in batch.obs:
            loss = self.compute_loss(batch.obs[agent], batch.masks[agent],
                                     batch.actions[agent], batch.returns[agent])
            if self.rebuild:
                per_agent[agent] = torch.tensor(loss, requires_grad=True)
            else:
                per_agent[agent] = loss
        total = torch.sum(torch.stack(list(per_agent.values())))
        total.backward()
        self.optimizer.step()
        return {k: v.item() for k, v in per_agent.items()}


def sample_batch(policy, n_agents=2, steps=64):
    obs, actions, masks, returns = {}, {}, {}, {}
    for a in range(n_agents):
        o = torch.randn(steps, OBS)
        m = torch.rand(steps, ACTIONS) > 0.3
        m[:, 0] = True  # "pass" is always legal
        with torch.no_grad():
            act = policy.distribution(o, m).sample()
        # taking a gem (action 1) when legal pays off; anything else costs a little
        r = torch.where(act == 1, torch.tensor(1.0), torch.tensor(-0.2))
        obs[f"player_{a}"], actions[f"player_{a}"] = o, act
        masks[f"player_{a}"], returns[f"player_{a}"] = m, r
    return Batch(obs, actions, masks, returns)


def prob_of_gem(policy):
    g = torch.Generator().manual_seed(123)
    o = torch.randn(256, OBS, generator=g)
    m = torch.ones(256, ACTIONS, dtype=torch.bool)
    with torch.no_grad():
        return policy.distribution(o, m).probs[:, 1].mean().item()


def run(rebuild, updates=40):
    torch.manual_seed(1)
    policy = MaskedPolicy()
    algo = Reinforce(policy, "adam", lr=1e-2, rebuild=rebuild)
    before = [p.detach().clone() for p in policy.parameters()]
    p0 = prob_of_gem(policy)
    grads_seen = []
    for _ in range(updates):
        logged = algo.update(sample_batch(policy))
        grads_seen.append([None if p.grad is None else p.grad.abs().sum().item() for p in policy.parameters()])
    assert all(v == v for v in logged.values())  # losses are ordinary finite numbers either way
    moved = any(not torch.equal(b, p) for b, p in zip(before, policy.parameters()))
    return grads_seen, moved, p0, prob_of_gem(policy)


grads, moved, p0, p1 = run(rebuild=True)
assert all(g is None for step in grads for g in step)
assert not moved and p1 == p0

grads, moved, p0, p1 = run(rebuild=False)
assert all(g is not None and g > 0 for g in grads[0])
assert moved and p1 > p0 + 0.2
print(f"gem probability with stacked losses: {p0:.2f} -> {p1:.2f}")
