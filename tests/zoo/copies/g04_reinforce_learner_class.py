"""expect: GL002 56
dynamic: confirm
source: https://github.com/dmqasc2/RL_pysc2/blob/35ccef9255a63b32d5c92eef49b6bbe967d0796b/agent/reinforce.py

A REINFORCE learner is a plain Python class. select_action() runs the policy (a spatial head and
a non-spatial head) and keeps the log-probability of each chosen action in two lists;
optimize() later combines them with normalised returns into per-step loss terms and sums them
with torch.tensor(terms, requires_grad=True).sum(). torch.tensor() copies the values into a new
leaf, so backward() runs without complaint but stops at that leaf: the policy network gets no
gradient and optimizer.step() leaves every weight unchanged.
"""
import torch
import torch.nn as nn


class TwoHeadPolicy(nn.Module):
    def __init__(self, n_in=10, n_cells=16, n_funcs=5):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(n_in, 32), nn.ReLU())
        self.spatial = nn.Linear(32, n_cells)
        self.nonspatial = nn.Linear(32, n_funcs)

    def forward(self, obs):
        h = self.trunk(obs)
        return self.spatial(h).softmax(-1), self.nonspatial(h).softmax(-1)


class Learner:
    def __init__(self, policy, lr=1e-2, gamma=0.99):
        self.policy = policy
        self.optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
        self.gamma = gamma
        self.spatial_log_probs = []
        self.nonspatial_log_probs = []
        self.rewards = []

    def select_action(self, obs):
        p_sp, p_ns = self.policy(obs[None])
        a_sp = torch.multinomial(p_sp[0], 1).item()
        a_ns = torch.multinomial(p_ns[0], 1).item()
        self.spatial_log_probs.append(p_sp[0, a_sp].log())
        self.nonspatial_log_probs.append(p_ns[0, a_ns].log())
        return a_sp, a_ns

    def optimize(self):
        running, returns = 0.0, []
        for r in reversed(self.rewards):
            running = r + self.gamma * running
            returns.insert(0, running)
        returns = torch.tensor(returns)
        returns = (returns - returns.mean()) / (returns.std() + 1e-8)
        terms = []
        for lp_sp, lp_ns, ret in zip(self.spatial_log_probs, self.nonspatial_log_probs, returns):
            terms.append(-lp_sp * ret - lp_ns * ret)
        self.optimizer.zero_grad()
        loss = torch.tensor(terms, requires_grad=True).sum()
        loss.backward()
        self.optimizer.step()
        self.spatial_log_probs.clear()
        self.nonspatial_log_probs.clear()
        self.rewards.clear()
        return loss


torch.manual_seed(0)
learner = Learner(TwoHeadPolicy())
before = {n: p.detach().clone() for n, p in learner.policy.named_parameters()}
for _ in range(6):
    a_sp, a_ns = learner.select_action(torch.randn(10))
    learner.rewards.append(1.0 if a_sp < 8 else -1.0)
loss = learner.optimize()

print("loss:", loss.item(), "grad_fn:", loss.grad_fn)
for name, p in learner.policy.named_parameters():
    assert p.grad is None, name
    assert torch.equal(p.detach(), before[name]), name
print("policy received no gradient and did not change")
