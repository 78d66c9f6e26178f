"""
expect: none
dynamic: dismiss
source: none, invented

An online advantage actor-critic with an LSTMCell policy on a noisy "follow the cue" task (a +1/-1 cue is seen
through heavy noise each step; choosing the matching action pays 1). The agent accumulates policy, value and
entropy terms over `unroll` environment steps, calls backward(retain_graph=True) on the chunk loss, steps Adam,
resets the chunk loss to 0 and passes the recurrent state through self._truncate, which returns a tuple of
detached copies. Because the carried (h, c) no longer reference the previous chunk's graph, each backward only
covers its own chunk (retain_graph=True is unneeded but harmless) and nothing reaches back to weights the
optimizer has already modified. The asserts show every chunk's graph has the same number of autograd nodes and
the average reward rises well above chance.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class CueEnv:
    def __init__(self, n_envs=16, noise=1.5):
        self.n, self.noise = n_envs, noise

    def reset(self):
        self.cue = torch.randint(0, 2, (self.n,))
        return self._obs()

    def _obs(self):
        sign = self.cue.float() * 2 - 1
        return torch.stack([sign + self.noise * torch.randn(self.n), torch.ones(self.n)], dim=1)

    def step(self, action):
        reward = (action == self.cue).float()
        return self._obs(), reward


class RecurrentA2C(nn.Module):
    def __init__(self, obs_dim=2, hidden=32, n_actions=2):
        super().__init__()
        self.cell = nn.LSTMCell(obs_dim, hidden)
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)
        self.hidden = hidden
        self.opt = torch.optim.Adam(self.parameters(), lr=3e-3)

    def initial_state(self, n):
        return torch.zeros(n, self.hidden), torch.zeros(n, self.hidden)

    def _truncate(self, state):
        return tuple(s.detach() for s in state)

    def act(self, obs, state):
        h, c = self.cell(obs, state)
        return self.pi(h), self.v(h).squeeze(-1), (h, c)

    def learn(self, env, episodes=60, ep_len=24, unroll=6):
        sizes, rewards = [], []
        for ep in range(episodes):
            obs = env.reset()
            state = self.initial_state(env.n)
            chunk_loss = 0
            for t in range(ep_len):
                logits, value, state = self.act(obs, state)
                dist = torch.distributions.Categorical(logits=logits)
                action = dist.sample()
                obs, reward = env.step(action)
                advantage = reward - value
                chunk_loss = chunk_loss + (-(dist.log_prob(action) * advantage.detach()).mean()
                                           + 0.5 * advantage.pow(2).mean()
                                           - 0.01 * dist.entropy().mean())
                rewards.append(reward.mean().item())
                if (t + 1) % unroll == 0:
                    sizes.append(graph_size(chunk_loss))
                    self.opt.zero_grad()
                    chunk_loss.backward(retain_graph=True)
                    self.opt.step()
                    chunk_loss = 0
                    state = self._truncate(state)
        return sizes, rewards


def main():
    agent = RecurrentA2C()
    sizes, rewards = agent.learn(CueEnv())
    assert len(set(sizes)) == 1, sorted(set(sizes))
    early = sum(rewards[:96]) / 96
    late = sum(rewards[-96:]) / 96
    assert late > 0.75 and late > early + 0.15, (early, late)
    print(f"k11: reward {early:.2f} -> {late:.2f}, {sizes[0]} nodes per chunk")


if __name__ == "__main__":
    main()
