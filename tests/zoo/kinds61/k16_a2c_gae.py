"""
expect: none
dynamic: dismiss
source: none, invented

Advantage actor-critic on a small corridor task. After each batch of rollouts the critic's value
estimates are taken out with `values.detach().numpy()`, generalised advantage estimates and discounted
returns are computed in NumPy, and both are rebuilt with `torch.from_numpy(...)`/`torch.tensor(...)`. The
rebuilt returns are only the target of `F.mse_loss(values, returns)` and the rebuilt advantages only weight
the log-probabilities; the prediction side (`values`, `logp`) stays in the graph. That is the standard,
correct way to build RL targets. The asserts show the critic's value loss falls, both the actor and the
critic weights move, and the average episode return rises well above a random policy's.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
np.random.seed(0)

LENGTH, HORIZON = 8, 24


class Corridor:
    def reset(self):
        self.pos = LENGTH // 2
        self.t = 0
        return self.obs()

    def obs(self):
        o = np.zeros(LENGTH + 1, dtype=np.float32)
        o[self.pos] = 1.0
        return o

    def step(self, action):
        self.pos = max(0, self.pos + (1 if action == 1 else -1))
        self.t += 1
        if self.pos == LENGTH:
            return self.obs(), 1.0, True
        return self.obs(), -0.02, self.t >= HORIZON


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(LENGTH + 1, 64), nn.Tanh())
        self.pi = nn.Linear(64, 2)
        self.v = nn.Linear(64, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.pi(h), self.v(h).squeeze(-1)


def rollout(env, agent, episodes=8):
    obs_buf, act_buf, rew_buf, done_buf, ep_returns = [], [], [], [], []
    for _ in range(episodes):
        o, done, total = env.reset(), False, 0.0
        while not done:
            with torch.no_grad():
                logits, _ = agent(torch.from_numpy(o))
            a = int(torch.distributions.Categorical(logits=logits).sample())
            o2, r, done = env.step(a)
            obs_buf.append(o); act_buf.append(a); rew_buf.append(r); done_buf.append(done)
            o, total = o2, total + r
        ep_returns.append(total)
    return np.stack(obs_buf), np.array(act_buf), np.array(rew_buf, dtype=np.float32), np.array(done_buf), ep_returns


def gae(rewards, values, dones, gamma=0.97, lam=0.95):
    adv = np.zeros_like(rewards)
    last = 0.0
    for t in reversed(range(len(rewards))):
        next_v = 0.0 if dones[t] else values[t + 1]
        delta = rewards[t] + gamma * next_v - values[t]
        last = delta + gamma * lam * (0.0 if dones[t] else last)
        adv[t] = last
    return adv, adv + values[:-1]


def main():
    env, agent = Corridor(), ActorCritic()
    opt = torch.optim.Adam(agent.parameters(), lr=3e-3)
    pi0, v0 = agent.pi.weight.detach().clone(), agent.v.weight.detach().clone()
    avg_returns, value_losses = [], []
    for it in range(120):
        obs, acts, rews, dones, ep_returns = rollout(env, agent)
        obs_t = torch.from_numpy(obs)
        logits, values = agent(obs_t)
        v_np = np.append(values.detach().numpy(), 0.0)
        adv, ret = gae(rews, v_np, dones)
        returns = torch.from_numpy(ret.astype(np.float32))
        advantages = torch.tensor((adv - adv.mean()) / (adv.std() + 1e-8), dtype=torch.float32)
        logp = F.log_softmax(logits, -1).gather(1, torch.from_numpy(acts)[:, None]).squeeze(1)
        policy_loss = -(logp * advantages).mean()
        value_loss = F.mse_loss(values, returns)
        loss = policy_loss + 0.5 * value_loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        avg_returns.append(np.mean(ep_returns))
        value_losses.append(value_loss.item())

    assert not torch.equal(agent.pi.weight.detach(), pi0)
    assert not torch.equal(agent.v.weight.detach(), v0)
    assert np.mean(value_losses[-20:]) < np.mean(value_losses[:20])
    assert np.mean(avg_returns[-20:]) > np.mean(avg_returns[:20]) + 0.3, (avg_returns[:5], avg_returns[-5:])
    print("k16: actor and critic learn from NumPy-built advantages and returns")


if __name__ == "__main__":
    main()
