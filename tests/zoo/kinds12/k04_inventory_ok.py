"""
expect: none
dynamic: dismiss
source: kind 4

An actor-critic agent runs a toy inventory-restocking problem with discrete order sizes;
during the rollout the policy and value networks append log-probabilities and state values
to Python lists. The update function uses value.detach() only inside the advantage and
regresses the attached values in a separate value loss, so both the policy and the critic
receive gradients and change after a few updates.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Warehouse:
    def __init__(self, shops=8):
        self.stock = torch.rand(shops, 1) * 10
        self.orders = torch.tensor([0.0, 2.0, 5.0])

    def observe(self):
        return torch.cat([self.stock / 10, torch.ones_like(self.stock)], -1)

    def act(self, choice):
        demand = torch.poisson(torch.full_like(self.stock, 3.0))
        self.stock = (self.stock + self.orders[choice][:, None] - demand).clamp(min=0)
        return -(self.stock.squeeze(-1) * 0.1 + (demand - self.stock).clamp(min=0).squeeze(-1))


class Agent(nn.Module):
    def __init__(self):
        super().__init__()
        self.policy = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 3))
        self.value = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))


def collect(agent, env, steps=12):
    logps, vals, rews = [], [], []
    for _ in range(steps):
        obs = env.observe()
        dist = torch.distributions.Categorical(logits=agent.policy(obs))
        choice = dist.sample()
        logps.append(dist.log_prob(choice))
        vals.append(agent.value(obs).squeeze(-1))
        rews.append(env.act(choice))
    return logps, vals, rews


def learn(agent, opt, logps, vals, rews, gamma=0.9):
    returns, running = [], torch.zeros_like(rews[0])
    for r in reversed(rews):
        running = r + gamma * running
        returns.insert(0, running)
    actor_terms, critic_terms = [], []
    for logp, value, ret in zip(logps, vals, returns):
        advantage = ret - value.detach()
        actor_terms.append(-(logp * advantage).mean())
        critic_terms.append(F.mse_loss(value, ret))
    loss = torch.stack(actor_terms).sum() + 0.5 * torch.stack(critic_terms).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()


def main():
    torch.manual_seed(0)
    agent = Agent()
    opt = torch.optim.Adam(agent.parameters(), lr=1e-2)
    value_before = agent.value[0].weight.clone()
    policy_before = agent.policy[0].weight.clone()
    for _ in range(3):
        learn(agent, opt, *collect(agent, Warehouse()))
    assert agent.value[0].weight.grad is not None
    assert not torch.equal(agent.value[0].weight, value_before)
    assert not torch.equal(agent.policy[0].weight, policy_before)
    print("ok: actor and critic both trained")


if __name__ == "__main__":
    main()
