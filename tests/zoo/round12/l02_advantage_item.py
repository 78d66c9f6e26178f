"""
expect: none
dynamic: dismiss
source: https://github.com/ChenRocks/fast_abs_rl/issues/49

In the RL training function the advantage was r - b with b a baseline tensor that
still required grad, so the policy loss also pushed the baseline (critic) around;
the reporter changed it to (r - b).item() and the author agreed. Taking the
advantage out as a plain number is deliberate here: it must act as a constant
weight on log pi, and the critic has its own regression loss. This program builds
that actor-critic extractor step. The asserts show the actor gets gradient from
the policy loss, the critic gets gradient only from its own value loss, and both
sets of weights change.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Extractor(nn.Module):
    def __init__(self, dim=8, n_sent=6):
        super().__init__()
        self.actor = nn.Linear(dim, 1)
        self.critic = nn.Sequential(nn.Linear(dim, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, sents):
        probs = torch.softmax(self.actor(sents).squeeze(-1), dim=-1)
        baseline = self.critic(sents.mean(0)).squeeze()
        return torch.distributions.Categorical(probs), baseline


def rl_step(model, opt, sents, reward_fn, steps=3):
    opt.zero_grad()
    losses, values, returns = [], [], []
    for _ in range(steps):
        dist, b = model(sents)
        action = dist.sample()
        r = reward_fn(int(action))
        advantage = r - b.item()
        losses.append(-dist.log_prob(action) * (advantage / steps))
        values.append(b)
        returns.append(r)
    policy_loss = torch.stack(losses).sum()
    value_loss = F.mse_loss(torch.stack(values), torch.tensor(returns))
    return policy_loss, value_loss


torch.manual_seed(0)
model = Extractor()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
sents = torch.randn(6, 8)
reward = lambda a: 1.0 if a == 2 else 0.0

policy_loss, value_loss = rl_step(model, opt, sents, reward)
policy_loss.backward(retain_graph=True)
assert model.actor.weight.grad is not None and model.actor.weight.grad.abs().sum() > 0
assert model.critic[0].weight.grad is None
value_loss.backward()
assert model.critic[0].weight.grad.abs().sum() > 0

a0 = model.actor.weight.detach().clone()
c0 = model.critic[2].weight.detach().clone()
opt.step()
for _ in range(30):
    opt.zero_grad()
    pl, vl = rl_step(model, opt, sents, reward)
    (pl + vl).backward()
    opt.step()
assert not torch.equal(a0, model.actor.weight)
assert not torch.equal(c0, model.critic[2].weight)
print("actor and critic both updated")
