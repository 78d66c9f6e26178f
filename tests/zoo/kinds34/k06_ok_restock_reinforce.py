"""
expect: none
dynamic: dismiss
source: kinds check 34, kind 3

An inventory-restocking policy is trained with REINFORCE. Rollouts store states,
chosen order sizes and returns as plain numbers (.tolist(), float()). The learner
rebuilds only the returns and actions from those numbers (no requires_grad) and
recomputes the log-probabilities with the policy, so the gradient reaches it.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
ORDER_SIZES = torch.tensor([0.0, 5.0, 10.0, 20.0])


def rollout(policy, horizon=12):
    episode = {"states": [], "actions": [], "returns": []}
    stock, rewards = 10.0, []
    with torch.no_grad():
        for t in range(horizon):
            state = torch.tensor([stock / 20.0, t / horizon])
            a = torch.distributions.Categorical(logits=policy(state)).sample()
            demand = float(torch.randint(0, 12, ()))
            stock = stock + float(ORDER_SIZES[a])
            sold = min(stock, demand)
            stock -= sold
            rewards.append(2.0 * sold - 0.3 * stock - 0.5 * float(ORDER_SIZES[a] > 0))
            episode["states"].append(state.tolist())
            episode["actions"].append(int(a))
    g = 0.0
    for r in reversed(rewards):
        g = r + 0.95 * g
        episode["returns"].insert(0, float(g))
    return episode


class RestockLearner:
    def __init__(self, policy, lr=1e-2):
        self.policy = policy
        self.opt = torch.optim.Adam(policy.parameters(), lr=lr)

    def update(self, episode):
        states = torch.tensor(episode["states"])
        actions = torch.tensor(episode["actions"])
        returns = torch.tensor(episode["returns"])
        returns = (returns - returns.mean()) / (returns.std() + 1e-6)
        log_probs = torch.distributions.Categorical(logits=self.policy(states)).log_prob(actions)
        loss = -(log_probs * returns).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss


policy = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, len(ORDER_SIZES)))
learner = RestockLearner(policy)
before = [p.detach().clone() for p in policy.parameters()]
loss = learner.update(rollout(policy))

assert loss.grad_fn is not None
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in policy.parameters())
assert all(not torch.equal(a, b) for a, b in zip(before, policy.parameters()))
print("policy received a gradient through recomputed log-probabilities")
