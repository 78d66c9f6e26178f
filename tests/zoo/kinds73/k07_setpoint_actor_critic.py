"""
expect: none
dynamic: dismiss
source: none, invented

RL / building climate control. A deterministic actor picks a heating setpoint offset from the
room state (outdoor temperature, occupancy, current indoor temperature) and a critic learns the
one-step comfort-minus-energy reward, DDPG-style on a contextual bandit. The critic's scoring
function `Critic.score` takes a `hold_fixed` flag: when the actor is updated it passes
`hold_fixed=True` and the critic's weights are detached inside the function, so the actor loss
`-Q(s, actor(s))` sends gradient only into the action and from there into the actor, whose
optimizer holds only the actor's parameters. The critic's own regression calls the function
with the default flag and trains normally. The detach is conditional and deliberate, which is
correct. The asserts show that an actor-loss backward leaves every critic gradient None while
the actor gets gradients, that the critic's regression error falls, and that the trained
actor's actions earn a much higher true reward than the initial actor's.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def true_reward(state, action):
    """Comfort is best at a state-dependent offset; energy cost grows with |offset|."""
    outdoor, occupancy, indoor = state.unbind(-1)
    best = 0.8 * occupancy - 0.5 * indoor - 0.2 * outdoor
    a = action.squeeze(-1)
    return -(a - best) ** 2 - 0.05 * a.abs()


class Actor(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, state):
        return 2.0 * torch.tanh(self.net(state))


class Critic(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.l1 = nn.Linear(4, hidden)
        self.l2 = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, 1)

    def score(self, state, action, hold_fixed=False):
        x = torch.cat([state, action], dim=-1)
        for layer in (self.l1, self.l2):
            w, b = layer.weight, layer.bias
            if hold_fixed:
                w, b = w.detach(), b.detach()
            x = F.relu(F.linear(x, w, b))
        w, b = self.out.weight, self.out.bias
        if hold_fixed:
            w, b = w.detach(), b.detach()
        return F.linear(x, w, b).squeeze(-1)


def sample_states(n):
    return torch.stack([torch.randn(n), torch.rand(n).round(), torch.randn(n)], dim=-1)


class SetpointAgent:
    def __init__(self, seed=0):
        torch.manual_seed(seed)
        self.actor, self.critic = Actor(), Critic()
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=2e-3)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=3e-3)

    def critic_step(self, n=128):
        s = sample_states(n)
        with torch.no_grad():
            a = (self.actor(s) + 0.7 * torch.randn(n, 1)).clamp(-2, 2)
            r = true_reward(s, a)
        loss = F.mse_loss(self.critic.score(s, a), r)
        self.critic_opt.zero_grad()
        loss.backward()
        self.critic_opt.step()
        return loss.item()

    def actor_loss(self, n=128):
        s = sample_states(n)
        return -self.critic.score(s, self.actor(s), hold_fixed=True).mean()

    def actor_step(self):
        loss = self.actor_loss()
        self.actor_opt.zero_grad()
        loss.backward()
        self.actor_opt.step()

    def evaluate(self, seed=42):
        g = torch.random.fork_rng()
        with g:
            torch.manual_seed(seed)
            s = sample_states(2000)
            with torch.no_grad():
                return true_reward(s, self.actor(s)).mean().item()


def main():
    torch.set_num_threads(1)
    agent = SetpointAgent()

    agent.actor_loss().backward()
    assert all(p.grad is None for p in agent.critic.parameters()), "critic held fixed"
    assert all(p.grad is not None for p in agent.actor.parameters())
    agent.actor.zero_grad(set_to_none=True)

    r0 = agent.evaluate()
    c_losses = [agent.critic_step() for _ in range(150)]
    for _ in range(300):
        agent.critic_step()
        agent.actor_step()
    r1 = agent.evaluate()
    print(f"critic mse {sum(c_losses[:10])/10:.3f} -> {sum(c_losses[-10:])/10:.3f}; "
          f"reward {r0:.3f} -> {r1:.3f}")
    assert sum(c_losses[-10:]) < 0.5 * sum(c_losses[:10])
    assert r1 > r0 + 0.3 and r1 > -0.3
    print("k07 OK: conditional detach of critic weights is correct for the actor update")


if __name__ == "__main__":
    main()
