"""expect: none
dynamic: dismiss
source: https://github.com/pytorch/examples/pull/249

An actor-critic policy saves (log_prob, value) pairs during an episode. At the end the returns
are built from Python floats with torch.tensor(), and the advantage of each step uses
value.item(), so the policy loss does not push gradients into the critic, exactly as the
reviewer in the linked pull request explained. The critic is trained by its own smooth-L1 loss
against torch.tensor([R]) targets, and the log-probabilities are combined with torch.stack, so
both the actor and the critic receive gradients. The copies here are of plain numbers and are
deliberate.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, n_obs=4, n_act=2):
        super().__init__()
        self.body = nn.Linear(n_obs, 32)
        self.action_head = nn.Linear(32, n_act)
        self.value_head = nn.Linear(32, 1)
        self.saved = []
        self.rewards = []

    def forward(self, x):
        h = F.relu(self.body(x))
        return F.softmax(self.action_head(h), dim=-1), self.value_head(h)


def select_action(model, state):
    probs, value = model(state)
    dist = Categorical(probs)
    action = dist.sample()
    model.saved.append((dist.log_prob(action), value))
    return action.item()


def finish_episode(model, optimizer, gamma=0.99):
    running, returns = 0.0, []
    for r in model.rewards[::-1]:
        running = r + gamma * running
        returns.insert(0, running)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    policy_terms, value_terms = [], []
    for (log_prob, value), R in zip(model.saved, returns):
        advantage = R - value.item()
        policy_terms.append(-log_prob * advantage)
        value_terms.append(F.smooth_l1_loss(value, torch.tensor([R])))
    optimizer.zero_grad()
    loss = torch.stack(policy_terms).sum() + torch.stack(value_terms).sum()
    loss.backward()
    grads = {n: p.grad.clone() for n, p in model.named_parameters()}
    optimizer.step()
    model.saved.clear()
    model.rewards.clear()
    return grads


torch.manual_seed(0)
net = ActorCritic()
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for t in range(10):
    a = select_action(net, torch.randn(4))
    net.rewards.append(1.0 if a == 0 else 0.0)
g = finish_episode(net, opt)

assert g["action_head.weight"].abs().sum() > 0
assert g["value_head.weight"].abs().sum() > 0
assert g["body.weight"].abs().sum() > 0
print("actor and critic both receive gradients")
