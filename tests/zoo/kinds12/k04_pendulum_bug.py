"""
expect: GL001 61
dynamic: confirm
source: kind 4

An advantage actor-critic agent balances a toy pendulum; during the rollout the policy and
value networks append log-probabilities and state values to Python lists. The update
function stacks the values once with .detach() and uses that tensor both for the advantage
and for the value-regression term, so the value term adds a number with no grad_fn while
the policy term still backpropagates. The critic's .grad stays None and its weights never
change; a variant that regresses the attached values trains the critic.
"""
import torch
import torch.nn as nn


class Pendulum:
    def __init__(self, batch=16):
        self.state = torch.randn(batch, 2) * 0.3

    def step(self, torque):
        angle, vel = self.state[:, 0], self.state[:, 1]
        vel = vel + 0.05 * (-9.8 * torch.sin(angle) + torque)
        angle = angle + 0.05 * vel
        self.state = torch.stack([angle, vel], -1)
        return self.state, -(angle ** 2 + 0.1 * vel ** 2)


def build(seed):
    torch.manual_seed(seed)
    policy = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 2))
    critic = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 1))
    opt = torch.optim.Adam(list(policy.parameters()) + list(critic.parameters()), lr=1e-2)
    return policy, critic, opt


def rollout(policy, critic, env, horizon=10):
    log_probs, values, rewards = [], [], []
    obs = env.state
    for _ in range(horizon):
        mean, log_std = policy(obs).unbind(-1)
        dist = torch.distributions.Normal(mean, log_std.clamp(-2, 1).exp())
        torque = dist.sample()
        log_probs.append(dist.log_prob(torque))
        values.append(critic(obs).squeeze(-1))
        obs, reward = env.step(torque)
        rewards.append(reward)
    return log_probs, values, rewards


def discounted(rewards, gamma=0.97):
    out, running = [], torch.zeros_like(rewards[0])
    for r in reversed(rewards):
        running = r + gamma * running
        out.append(running)
    return torch.stack(out[::-1])


def update(opt, log_probs, values, rewards):
    returns = discounted(rewards)
    baseline = torch.stack(values).detach()
    advantage = returns - baseline
    policy_loss = -(torch.stack(log_probs) * advantage).mean()
    value_loss = (returns - baseline).pow(2).mean()
    loss = policy_loss + 0.5 * value_loss
    opt.zero_grad()
    loss.backward()
    opt.step()


def update_reference(opt, log_probs, values, rewards):
    returns = discounted(rewards)
    v = torch.stack(values)
    policy_loss = -(torch.stack(log_probs) * (returns - v.detach())).mean()
    value_loss = (returns - v).pow(2).mean()
    opt.zero_grad()
    (policy_loss + 0.5 * value_loss).backward()
    opt.step()


def main():
    policy, critic, opt = build(0)
    critic_before = critic[0].weight.clone()
    policy_before = policy[0].weight.clone()
    for _ in range(2):
        update(opt, *rollout(policy, critic, Pendulum()))
    assert critic[0].weight.grad is None
    assert torch.equal(critic[0].weight, critic_before)
    assert not torch.equal(policy[0].weight, policy_before)

    policy, critic, opt = build(0)
    critic_before = critic[0].weight.clone()
    for _ in range(2):
        update_reference(opt, *rollout(policy, critic, Pendulum()))
    assert not torch.equal(critic[0].weight, critic_before)
    print("ok: critic never trained when the value term used detached values")


if __name__ == "__main__":
    main()
