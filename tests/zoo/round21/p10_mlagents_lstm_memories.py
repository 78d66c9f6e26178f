"""
expect: GL004 55
dynamic: confirm
source: https://github.com/Unity-Technologies/ml-agents/pull/5048

ml-agents fixed a memory leak with recurrent (LSTM) policies: the memories returned while
acting were stored as tensors that still required grad and were fed back in on the next
step, so each step's graph hung on to every previous step and, over long episodes, the
graph exploded. This program has an agent with an LSTM policy acting in a toy environment
and carrying its memories between calls, plus a sequence update from the buffer. The
asserts show the autograd graph hanging off the carried memory grows linearly with the
number of environment steps, while a detached carry keeps it at a constant size.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def graph_nodes(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class LSTMPolicy(nn.Module):
    def __init__(self, obs_dim=6, hidden=16, n_act=3):
        super().__init__()
        self.body = nn.Linear(obs_dim, hidden)
        self.lstm = nn.LSTMCell(hidden, hidden)
        self.pi = nn.Linear(hidden, n_act)

    def forward(self, obs, memories):
        h, c = self.lstm(torch.relu(self.body(obs)), memories)
        return self.pi(h), (h, c)


class Agent:
    def __init__(self, policy, hidden=16):
        self.policy = policy
        self.memories = (torch.zeros(1, hidden), torch.zeros(1, hidden))
        self.buffer = []

    def act(self, obs):
        logits, new_memories = self.policy(obs, self.memories)
        action = torch.distributions.Categorical(logits=logits).sample()
        self.buffer.append((obs, action, self.memories))
        self.memories = new_memories
        return action

    def update(self, optimizer, seq_len=8):
        obs, actions, mems = zip(*self.buffer[-seq_len:])
        h, c = (m.detach() for m in mems[0])             # replay from the stored start memory
        loss = 0.0
        for o, a in zip(obs, actions):
            logits, (h, c) = self.policy(o, (h, c))
            loss = loss + F.cross_entropy(logits, a)    # behaviour-cloning style stand-in
        optimizer.zero_grad()
        (loss / len(obs)).backward()
        optimizer.step()


class AgentDetachedCarry(Agent):
    def act(self, obs):
        logits, (h, c) = self.policy(obs, self.memories)
        action = torch.distributions.Categorical(logits=logits).sample()
        self.buffer.append((obs, action, self.memories))
        self.memories = (h.detach(), c.detach())
        return action


def run(agent_cls, steps=40):
    policy = LSTMPolicy()
    agent = agent_cls(policy)
    opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
    sizes = []
    for t in range(steps):
        agent.act(torch.randn(1, 6))
        if (t + 1) % 10 == 0:
            sizes.append(graph_nodes(agent.memories[0]))
            agent.update(opt)
    return sizes


leaky = run(Agent)
steady = run(AgentDetachedCarry)
assert all(b > a for a, b in zip(leaky, leaky[1:])), f"graph grows with episode length: {leaky}"
assert leaky[-1] >= 3 * leaky[0], "roughly linear growth over the episode"
assert len(set(steady)) == 1, f"detached carry keeps the graph bounded: {steady}"
print("ok: carried-memory graph nodes", leaky, "vs detached", steady)
