"""
expect: none
dynamic: dismiss
source: none, invented

Independent PPO for several agents on a line world, each agent with its own goal cell, policy, value network
and optimizer. Inside the loop over agents, advantages come from a numpy helper: `compute_gae` takes the
rewards and `values.detach().cpu().numpy()`, runs the GAE recursion in numpy and returns
`torch.from_numpy(adv)`. The rebuilt tensor has no history, which is what PPO wants: advantages and the
returns built from them are targets computed from collected data and old value estimates, held fixed during
the update. The policy trains through the log-probability ratio and the value net through its own prediction
in the value loss. The asserts check that each agent's policy and value weights change, that the value net
explains most of the variance of the returns, and that every agent's episode return rises well above its
starting level.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)
torch.set_num_threads(1)

N_CELLS, HORIZON, N_ENVS = 9, 12, 64


def compute_gae(rewards, values, gamma=0.97, lam=0.95):
    r = rewards.cpu().numpy()
    v = values.detach().cpu().numpy()
    adv = np.zeros_like(r)
    last = np.zeros(r.shape[1], dtype=r.dtype)
    for t in reversed(range(r.shape[0])):
        next_v = v[t + 1] if t + 1 < r.shape[0] else np.zeros_like(last)
        delta = r[t] + gamma * next_v - v[t]
        last = delta + gamma * lam * last
        adv[t] = last
    return torch.from_numpy(adv)


class LineAgent:
    def __init__(self, goal, lr=3e-3):
        self.goal = goal
        self.policy = nn.Sequential(nn.Linear(N_CELLS + 1, 64), nn.Tanh(), nn.Linear(64, 3))
        self.value = nn.Sequential(nn.Linear(N_CELLS + 1, 64), nn.Tanh(), nn.Linear(64, 1))
        self.pi_opt = torch.optim.Adam(self.policy.parameters(), lr=lr)
        self.v_opt = torch.optim.Adam(self.value.parameters(), lr=lr)

    def rollout(self):
        pos = torch.zeros(N_ENVS, dtype=torch.long)
        obs, acts, logps, rews = [], [], [], []
        for t in range(HORIZON):
            x = torch.cat([F.one_hot(pos, N_CELLS).float(), torch.full((N_ENVS, 1), t / HORIZON)], dim=1)
            with torch.no_grad():
                dist = torch.distributions.Categorical(logits=self.policy(x))
                a = dist.sample()
            pos = (pos + a - 1).clamp(0, N_CELLS - 1)
            obs.append(x)
            acts.append(a)
            logps.append(dist.log_prob(a))
            rews.append((pos == self.goal).float() - 0.05)
        return torch.stack(obs), torch.stack(acts), torch.stack(logps), torch.stack(rews)

    def update(self, obs, acts, old_logp, rews, epochs=4, clip=0.2):
        values = self.value(obs).squeeze(-1)
        adv = compute_gae(rews, values)
        returns = adv + values.detach()
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        for _ in range(epochs):
            logp = torch.distributions.Categorical(logits=self.policy(obs)).log_prob(acts)
            ratio = (logp - old_logp).exp()
            pi_loss = -torch.min(ratio * adv, ratio.clamp(1 - clip, 1 + clip) * adv).mean()
            self.pi_opt.zero_grad()
            pi_loss.backward()
            self.pi_opt.step()

            v_loss = F.mse_loss(self.value(obs).squeeze(-1), returns)
            self.v_opt.zero_grad()
            v_loss.backward()
            self.v_opt.step()
        with torch.no_grad():
            resid = returns - self.value(obs).squeeze(-1)
        return 1.0 - (resid.var() / returns.var().clamp(min=1e-8)).item()


def main():
    agents = [LineAgent(goal) for goal in (3, 6, 8)]
    snapshots = [[p.detach().clone() for p in list(ag.policy.parameters()) + list(ag.value.parameters())]
                 for ag in agents]
    first_return = [None] * len(agents)
    last_return = [None] * len(agents)
    explained = [[] for _ in agents]
    for it in range(120):
        for i, agent in enumerate(agents):
            obs, acts, logps, rews = agent.rollout()
            ret = rews.sum(0).mean().item()
            if first_return[i] is None:
                first_return[i] = ret
            last_return[i] = ret
            explained[i].append(agent.update(obs, acts, logps, rews))

    for i, agent in enumerate(agents):
        params = list(agent.policy.parameters()) + list(agent.value.parameters())
        assert not any(torch.equal(a, b) for a, b in zip(snapshots[i], params)), i
        assert last_return[i] > first_return[i] + 3.0, (agent.goal, first_return[i], last_return[i])
        ev = sum(explained[i][-10:]) / 10
        assert ev > 0.5, (agent.goal, ev)
        print(f"goal {agent.goal}: return {first_return[i]:.2f} -> {last_return[i]:.2f}, value explained var {ev:.2f}")


if __name__ == "__main__":
    main()
