"""expect: GL002 62
dynamic: confirm
source: https://github.com/stephenjpeng/Prototype-Hierarchical-Imitation-Learning/blob/f565813e0ee444ed4c0e73f96629c1722cc8e743/scripts/train.py#L364

A hierarchical imitation learner trains two things in one function: a base agent that imitates
expert actions (a plain regression loss) and a detector that chooses which regime to use,
trained as an actor-critic. Before the detector update the per-step log-probabilities are
collected into a list and converted with torch.tensor(..., requires_grad=True). That copy is a
new leaf, so the actor loss is built on numbers that are no longer connected to the detector's
policy head. The imitation loss and the critic loss still backpropagate, hence training runs,
but the policy head of the detector never receives a gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class Detector(nn.Module):
    def __init__(self, n_in=6, n_regimes=3):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_in, 16), nn.Tanh())
        self.pi = nn.Linear(16, n_regimes)
        self.v = nn.Linear(16, 1)

    def act(self, obs):
        h = self.body(obs)
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def train(steps=12, gamma=0.9, seed=0):
    torch.manual_seed(seed)
    base_agents = nn.Linear(6, 2 * 3)
    detector = Detector()
    base_opt = torch.optim.Adam(base_agents.parameters(), lr=1e-2)
    det_opt = torch.optim.Adam(detector.parameters(), lr=1e-2)

    log_probs, values, rewards = [], [], []
    base_loss = 0.0
    for _ in range(steps):
        obs = torch.randn(6)
        expert_action = torch.randn(2)
        policy, value = detector.act(obs)
        regime = policy.sample()
        prediction = base_agents(obs).view(3, 2)[regime]
        step_error = F.mse_loss(prediction, expert_action)
        base_loss = base_loss + step_error
        log_probs.append(policy.log_prob(regime))
        values.append(value)
        rewards.append(-step_error.item())

    values = torch.stack(values)
    with torch.no_grad():
        next_values = torch.cat([values[1:], torch.zeros(1)])
        targets = torch.tensor(rewards) + gamma * next_values
        advantages = targets - values

    base_opt.zero_grad()
    (base_loss / steps).backward()
    base_opt.step()

    log_probs = torch.tensor(log_probs, requires_grad=True)
    critic_loss = (targets - values).pow(2).mean()
    actor_loss = -(advantages * log_probs).mean()
    det_opt.zero_grad()
    (critic_loss + actor_loss).backward()
    snapshot = {n: p.grad for n, p in detector.named_parameters()}
    det_opt.step()
    return base_agents, snapshot


base, det_grads = train()
print({n: (None if g is None else round(g.abs().sum().item(), 4)) for n, g in det_grads.items()})
assert base.weight.grad is not None and base.weight.grad.abs().sum() > 0
assert det_grads["v.weight"] is not None and det_grads["v.weight"].abs().sum() > 0
assert det_grads["pi.weight"] is None and det_grads["pi.bias"] is None
print("the detector's policy head is never trained")
