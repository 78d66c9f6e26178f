"""
expect: GL004 69
dynamic: confirm
source: https://github.com/achavala/Project0-Next/blob/HEAD/LSTM_GRAPH_DETACH_FIX.md

Public write-up of a trading agent whose LSTM policy kept its hidden state (self.lstm_hidden)
attached to the graph across backward passes, which failed with "Trying to backward through the
graph a second time"; the error text suggests retain_graph=True, and that is what this recurrent
actor-critic does: it backpropagates every step's loss as it goes, with the LSTM state carried
from step to step, and steps the optimizer once per rollout. Every backward walks back through
all earlier steps of the rollout, so the retained graph grows each step and early steps
are walked again and again (quadratic backward work and memory over a rollout). The asserts
show the graph behind each step's loss growing step after step, while the variant that detaches
the state after each step keeps a constant one-step graph.
"""
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)
torch.set_num_threads(1)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(f for f, _ in fn.next_functions)
    return len(seen)


class LSTMPolicy(nn.Module):
    def __init__(self, obs=6, hid=16, acts=3):
        super().__init__()
        self.cell = nn.LSTMCell(obs, hid)
        self.pi = nn.Linear(hid, acts)
        self.v = nn.Linear(hid, 1)
        self.lstm_hidden = None

    def reset(self):
        self.lstm_hidden = None

    def forward(self, obs):
        self.lstm_hidden = self.cell(obs, self.lstm_hidden)
        h = self.lstm_hidden[0]
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


class OnlineActorCritic:
    def __init__(self, policy):
        self.policy = policy
        self.opt = torch.optim.Adam(policy.parameters(), lr=3e-4)

    def step_loss(self, obs, reward):
        dist, value = self.policy(obs)
        action = dist.sample()
        adv = reward - value.detach()
        return -(dist.log_prob(action) * adv).mean() + 0.5 * (value - reward).pow(2).mean()

    def rollout(self, observations, rewards):
        self.policy.reset()
        self.opt.zero_grad()
        sizes = []
        for obs, r in zip(observations, rewards):
            loss = self.step_loss(obs, r)
            loss.backward(retain_graph=True)  # hidden state still links to earlier steps
            sizes.append(graph_size(loss))
        grads = [p.grad.clone() for p in self.policy.parameters()]
        self.opt.step()
        return sizes, grads


T = 8
observations = [torch.randn(4, 6) for _ in range(T)]
rewards = [torch.randn(4) for _ in range(T)]

torch.manual_seed(1)
agent = OnlineActorCritic(LSTMPolicy())
state0 = {k: v.clone() for k, v in agent.policy.state_dict().items()}
torch.manual_seed(2)
sizes, buggy_grads = agent.rollout(observations, rewards)
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes   # graph grows every step

# truncated variant: state detached after each backward, graph stays one step long
class TruncatedPolicy(LSTMPolicy):
    def forward(self, obs):
        if self.lstm_hidden is not None:
            self.lstm_hidden = tuple(h.detach() for h in self.lstm_hidden)
        return super().forward(obs)


fixed = OnlineActorCritic(TruncatedPolicy())
fixed.policy.load_state_dict(state0)
fixed_sizes, _ = fixed.rollout(observations, rewards)
assert len(set(fixed_sizes[1:])) == 1, fixed_sizes
assert sizes[-1] > 3 * fixed_sizes[-1]
assert sum(sizes) > 2 * sum(fixed_sizes)                      # backward work grows quadratically
print("graph nodes per step, retained:", sizes, "detached:", fixed_sizes)
print("ok")
