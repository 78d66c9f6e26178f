"""
expect: none
dynamic: dismiss
source: https://github.com/OhGreat/PolicyBased_DeepRL/blob/86904a9/Algorithms/Reinforce.py

REINFORCE with a learned baseline. The epoch loss is accumulated into a
float64 tensor created with torch.tensor([0]) and grown in place with +=,
-= and /=; inside the return loop the baseline value is added to the value
loss and then detached before it is used as the baseline of the policy term.
None of this cuts the policy gradient: the fresh accumulator is not a leaf
anyone trains, and the first in-place add puts it on the policy's graph; the
in-place updates touch only the accumulator, which no recorded op has saved;
and the detach only keeps the policy loss from pushing on the value network,
which is trained by its own squared-error loss. The policy gradient equals the
out-of-place sum's, the value net gets gradient only from the value loss, and
the mean episode reward rises.
"""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)
torch.set_num_threads(1)


class SignEnv:
    """Reward 1 when the action matches the sign of the first state coordinate."""

    def __init__(self, horizon=8, seed=0):
        self.horizon = horizon
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.t = 0
        self.s = self.rng.normal(size=4).astype(np.float32)
        return self.s

    def step(self, a):
        r = float(a == int(self.s[0] > 0))
        self.t += 1
        self.s = self.rng.normal(size=4).astype(np.float32)
        return self.s, r, self.t >= self.horizon


class Reinforce:
    def __init__(self, env, model, optimizer, model_v, optimizer_v, M=8, gamma=0.9):
        self.env, self.model, self.model_v = env, model, model_v
        self.optimizer, self.optim_value = optimizer, optimizer_v
        self.M, self.gamma = M, gamma

    def sample_trace(self, s):
        trace, total, done = [], 0.0, False
        while not done:
            st = torch.from_numpy(s)
            dist = Categorical(logits=self.model(st))
            a = dist.sample()
            s_next, r, done = self.env.step(a.item())
            trace.append((st, a, r, dist))
            total += r
            s = s_next
        trace.append((torch.from_numpy(s), None, 0.0, None))
        return trace, total

    def epoch(self):
        loss_policy = torch.tensor([0], dtype=torch.float64)
        loss_value = torch.tensor([0], dtype=torch.float64)
        reward = 0
        for _ in range(self.M):
            h0, reward_t = self.sample_trace(self.env.reset())
            reward += reward_t
            R = 0
            for t in range(len(h0) - 2, -1, -1):
                R = h0[t][2] + self.gamma * R
                v = self.model_v(h0[t][0])
                loss_value += torch.square(R - v)
                v = v.detach()
                loss_policy += (R - v) * -h0[t][3].log_prob(h0[t][1])
        loss_policy /= self.M
        loss_value /= self.M
        return loss_policy, loss_value, reward / self.M

    @staticmethod
    def train(model, loss, optimizer):
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def reference_policy_loss(agent):
    terms = []
    for _ in range(agent.M):
        h0, _ = agent.sample_trace(agent.env.reset())
        R = 0
        for t in range(len(h0) - 2, -1, -1):
            R = h0[t][2] + agent.gamma * R
            with torch.no_grad():
                v = agent.model_v(h0[t][0])
            terms.append((R - v) * -h0[t][3].log_prob(h0[t][1]))
    return torch.stack(terms).sum() / agent.M


policy = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 2))
value = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 1))
agent = Reinforce(SignEnv(), policy, torch.optim.Adam(policy.parameters(), lr=1e-2),
                  value, torch.optim.Adam(value.parameters(), lr=1e-2))

torch.manual_seed(1)
agent.env = SignEnv(seed=1)
loss_policy, loss_value, _ = agent.epoch()
assert loss_policy.grad_fn is not None and loss_policy.dtype == torch.float64
pol_params = list(policy.parameters())
g_acc = torch.autograd.grad(loss_policy.sum(), pol_params, retain_graph=True)
assert all(g.abs().sum() > 0 for g in g_acc)
assert all(g is None for g in torch.autograd.grad(loss_policy.sum(), list(value.parameters()), retain_graph=True, allow_unused=True))
assert all(g.abs().sum() > 0 for g in torch.autograd.grad(loss_value.sum(), list(value.parameters()), retain_graph=True))

torch.manual_seed(1)
agent.env = SignEnv(seed=1)
g_ref = torch.autograd.grad(reference_policy_loss(agent), pol_params)
assert all(torch.allclose(a, b, rtol=1e-4, atol=1e-6) for a, b in zip(g_acc, g_ref))
agent.train(policy, loss_policy, agent.optimizer)
agent.train(value, loss_value, agent.optim_value)
assert all(p.grad is not None for p in policy.parameters())

rewards = []
for _ in range(60):
    lp, lv, r = agent.epoch()
    agent.train(policy, lp, agent.optimizer)
    agent.train(value, lv, agent.optim_value)
    rewards.append(r)
assert np.mean(rewards[-10:]) > np.mean(rewards[:10]) + 1.0
print(f"accumulated REINFORCE loss trains: mean reward {np.mean(rewards[:10]):.2f} -> {np.mean(rewards[-10:]):.2f} of 8")
