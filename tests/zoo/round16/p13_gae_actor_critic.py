"""
expect: GL002 65
dynamic: confirm
source: https://github.com/jsboige/CoursIA/pull/15256

The PR fixes a "dead critic" in a GAE-from-scratch notebook: rollout() collected
values.append(value.item()), and the training code built F.mse_loss(values_t, returns) from
those numbers, so the value head (65 parameters) never got a gradient and its weights stayed
exactly at init. This program rebuilds an actor-critic agent with a rollout that stores
value.item() and a trainer that turns the list back into a tensor for the value loss. The
asserts show the critic head's grad stays None and its weights do not change over several
updates while the policy head trains; keeping the value tensors trains the critic.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=6, n_act=3):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh())
        self.pi = nn.Linear(64, n_act)
        self.v = nn.Linear(64, 1)

    def forward(self, obs):
        h = self.body(obs)
        return torch.distributions.Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def rollout(agent, steps=16, store_tensors=False):
    log_probs, values, rewards = [], [], []
    obs = torch.randn(6)
    for _ in range(steps):
        dist, value = agent(obs)
        a = dist.sample()
        log_probs.append(dist.log_prob(a))
        values.append(value if store_tensors else value.item())
        rewards.append(float(a == 1))
        obs = torch.randn(6)
    return log_probs, values, rewards


def gae(rewards, values, gamma=0.99, lam=0.95):
    adv, last = [], 0.0
    vals = list(values) + [0.0]
    for t in reversed(range(len(rewards))):
        delta = rewards[t] + gamma * vals[t + 1] - vals[t]
        last = delta + gamma * lam * last
        adv.insert(0, last)
    adv = torch.tensor(adv)
    return adv, adv + torch.tensor(vals[:-1])


def train_gae(agent, updates=3, store_tensors=False):
    opt = torch.optim.Adam(agent.parameters(), lr=1e-2)
    for _ in range(updates):
        log_probs, values, rewards = rollout(agent, store_tensors=store_tensors)
        if store_tensors:
            values_t = torch.stack(values)
            adv, returns = gae(rewards, [v.item() for v in values])
        else:
            values_t = torch.tensor(values)
            adv, returns = gae(rewards, values)
        p_loss = -(torch.stack(log_probs) * adv).mean()
        v_loss = F.mse_loss(values_t, returns)
        opt.zero_grad()
        (p_loss + 0.5 * v_loss).backward()
        opt.step()


agent = ActorCritic()
v0 = agent.v.weight.detach().clone()
pi0 = agent.pi.weight.detach().clone()
train_gae(agent)
assert agent.v.weight.grad is None
assert torch.equal(v0, agent.v.weight), "critic head frozen at init"
assert not torch.equal(pi0, agent.pi.weight)

agent2 = ActorCritic()
v0b = agent2.v.weight.detach().clone()
train_gae(agent2, store_tensors=True)
assert not torch.equal(v0b, agent2.v.weight)
print("ok: values stored with .item() leave the critic untrained")
