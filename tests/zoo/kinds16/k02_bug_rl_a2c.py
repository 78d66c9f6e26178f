"""
expect: GL001 34
dynamic: confirm
source: kind 2

An A2C learner detaches the advantage (returns - values), which is right for
the policy-gradient term. The same detached advantage is then squared to
build the value loss, so that term is a plain number and the critic never
trains. The asserts show the critic's gradient is None and its weights stay
put, while the variant that squares the attached (returns - values) trains it.
"""
import torch
import torch.nn as nn


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=8, n_actions=4, hidden=32):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(),
                                   nn.Linear(hidden, n_actions))
        self.critic = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(),
                                    nn.Linear(hidden, 1))


class A2CLearner:
    def __init__(self, net, value_coef=0.5, fixed=False):
        self.net, self.value_coef, self.fixed = net, value_coef, fixed
        self.opt = torch.optim.RMSprop(net.parameters(), lr=7e-3)

    def loss(self, obs, actions, returns):
        logits = self.net.actor(obs)
        values = self.net.critic(obs).squeeze(-1)
        logp = torch.log_softmax(logits, -1).gather(1, actions[:, None]).squeeze(1)
        advantage = (returns - values).detach()
        policy_loss = -(logp * advantage).mean()
        if self.fixed:
            value_loss = (returns - values).pow(2).mean()
        else:
            value_loss = advantage.pow(2).mean()
        return policy_loss + self.value_coef * value_loss

    def update(self, obs, actions, returns):
        self.opt.zero_grad()
        self.loss(obs, actions, returns).backward()
        grad = self.net.critic[0].weight.grad
        self.opt.step()
        return grad


def run(fixed):
    torch.manual_seed(1)
    learner = A2CLearner(ActorCritic(), fixed=fixed)
    obs, actions = torch.randn(64, 8), torch.randint(0, 4, (64,))
    returns = obs[:, 0] * 2.0 + 1.0
    critic_before = learner.net.critic[0].weight.detach().clone()
    actor_before = learner.net.actor[0].weight.detach().clone()
    for _ in range(10):
        grad = learner.update(obs, actions, returns)
    return learner.net, critic_before, actor_before, grad


if __name__ == "__main__":
    net, critic_before, actor_before, grad = run(fixed=False)
    assert grad is None, "critic should get no gradient"
    assert torch.equal(net.critic[0].weight, critic_before)
    assert not torch.equal(net.actor[0].weight, actor_before)

    net, critic_before, _, grad = run(fixed=True)
    assert grad is not None and grad.abs().sum() > 0
    assert not torch.equal(net.critic[0].weight, critic_before)
    print("ok: squared detached advantage leaves the critic untrained")
