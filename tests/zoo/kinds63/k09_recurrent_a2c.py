"""
expect: GL004 77
dynamic: confirm
source: none, invented

A recurrent advantage actor-critic agent on a cue-recall task (a cue is shown, then the agent must keep
reporting it). `RecurrentA2C.rollout_and_learn` steps a GRUCell policy through a long episode and every `k`
steps does `(chunk_loss / k).backward(retain_graph=True)`, steps Adam and resets the chunk loss, then hands the
hidden state to its own `_carry` method. `_carry` only returns the state it got, so the next chunk's graph
still hangs off the previous chunk's: its backward walks back through every earlier step (the graph grows
with the episode) and into GRUCell nodes whose saved weights Adam has already updated in place. With
`retain_graph=True` nothing stops that walk, and autograd raises "modified by an inplace operation" at the
second chunk. The asserts catch that error; with `truncate=True` `_carry` detaches and the agent learns the task.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_CUES, HIDDEN = 3, 32


class CueRecallEnv:
    def __init__(self, length):
        self.length = length

    def reset(self):
        self.t, self.cue = 0, torch.randint(0, N_CUES, ()).item()
        return self._obs()

    def _obs(self):
        obs = torch.zeros(1, N_CUES + 1)
        if self.t % 10 == 0:
            obs[0, self.cue] = 1.0
        else:
            obs[0, N_CUES] = 1.0
        return obs

    def step(self, action):
        reward = 1.0 if action == self.cue else 0.0
        self.t += 1
        return self._obs(), reward


class RecurrentA2C(nn.Module):
    def __init__(self, k=10, truncate=False):
        super().__init__()
        self.core = nn.GRUCell(N_CUES + 1, HIDDEN)
        self.pi = nn.Linear(HIDDEN, N_CUES)
        self.v = nn.Linear(HIDDEN, 1)
        self.k, self.truncate = k, truncate
        self.opt = torch.optim.Adam(self.parameters(), lr=1e-2)

    def _carry(self, h):
        if self.truncate:
            return h.detach()
        return h

    def rollout_and_learn(self, env):
        k = self.k
        obs, h = env.reset(), torch.zeros(1, HIDDEN)
        chunk_loss, rewards = 0.0, []
        for t in range(env.length):
            h = self.core(obs, h)
            dist = torch.distributions.Categorical(logits=self.pi(h))
            action = dist.sample()
            obs, reward = env.step(action.item())
            value = self.v(h).squeeze()
            advantage = reward - value
            chunk_loss = chunk_loss - dist.log_prob(action).squeeze() * advantage.detach() \
                + 0.5 * advantage.pow(2) - 0.01 * dist.entropy().squeeze()
            rewards.append(reward)
            if (t + 1) % k == 0:
                self.opt.zero_grad()
                (chunk_loss / k).backward(retain_graph=True)
                self.opt.step()
                chunk_loss = 0.0
                h = self._carry(h)
        return sum(rewards) / len(rewards)


env = CueRecallEnv(length=60)
agent = RecurrentA2C(truncate=False)
try:
    agent.rollout_and_learn(env)
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised, raised

torch.manual_seed(0)
agent = RecurrentA2C(truncate=True)
scores = [agent.rollout_and_learn(env) for _ in range(150)]
early, late = sum(scores[:20]) / 20, sum(scores[-20:]) / 20
assert late > early + 0.2 and late > 0.7, (early, late)
print(f"ok: untruncated state hits the in-place check at chunk 2 (as claimed); truncated agent recall {early:.2f} -> {late:.2f}")
