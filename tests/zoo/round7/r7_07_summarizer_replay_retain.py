"""expect: GL004 64
dynamic: confirm
source: https://github.com/rentruewang/brief/issues/1

"brief" trains a sentence shortener with Q-learning: a replay Storage keeps,
for every episode, the list of states S = [action, states, encoded] that came
out of the encoder and is replayed many times by Storage.optimize(), which
calls loss.backward(retain_graph=True) for each stored episode ("S carries
information all the way back to encoder"). An issue asked why the graph is
retained; the author explained that the graph is built once but replayed on
every step. Because the stored states are never detached, every episode's
encoder graph (with its saved tensors) stays alive inside the replay buffer
and is kept by retain_graph, so memory grows with every episode. Fix: store
detached states and recompute the encoder when replaying (no retain_graph).
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class SentenceEncoder(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)

    def forward(self, tokens):
        return torch.tanh(self.emb(tokens)).mean(0)


class QHead(nn.Module):
    def __init__(self, dim, n_actions):
        super().__init__()
        self.n_actions = n_actions
        self.value = nn.Linear(dim + n_actions, n_actions)

    def forward(self, encoded, prev_action):
        onehot = F.one_hot(torch.as_tensor(prev_action), self.n_actions).float()
        return self.value(torch.cat([encoded, onehot], -1))


class Storage:
    def __init__(self, decay_value=0.0):
        self.decay_value = decay_value
        self.data = []

    def save(self, states, actions, rewards):
        self.data.append([states, actions, rewards])

    def refresh(self):
        self.data = [d for d in self.data if random.random() >= self.decay_value]

    def optimize(self, q_head, q_target, q_optim, gamma=0.9):
        for states, actions, rewards in self.data:
            loss = torch.zeros(())
            for t, ((encoded, prev), act, rew) in enumerate(zip(states, actions, rewards)):
                q_sa = q_head(encoded, prev)[act]
                with torch.no_grad():
                    nxt = states[t + 1] if t + 1 < len(states) else None
                    boot = q_target(*nxt).max() if nxt is not None else torch.zeros(())
                loss = loss + F.smooth_l1_loss(q_sa, rew + gamma * boot)
            q_optim.zero_grad()
            loss.backward(retain_graph=True)
            q_optim.step()


def run_episode(encoder, q_head, storage, vocab, n_steps=4):
    tokens = torch.randint(0, vocab, (12,))
    encoded = encoder(tokens)                     # graph back to the encoder
    states, actions, rewards, prev = [], [], [], 0
    for _ in range(n_steps):
        states.append((encoded, prev))
        act = int(q_head(encoded, prev).argmax())
        actions.append(act)
        rewards.append(torch.tensor(float(act == 0)))
        prev = act
    storage.save(states, actions, rewards)
    return encoded


def live_graph_size(storage):
    seen, stack = set(), []
    for states, _, _ in storage.data:
        stack.extend(enc.grad_fn for enc, _ in states if enc.grad_fn is not None)
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(nxt for nxt, _ in node.next_functions)
    return len(seen)


random.seed(0)
torch.manual_seed(0)
VOCAB, DIM, N_ACT = 30, 16, 3
encoder, q_head = SentenceEncoder(VOCAB, DIM), QHead(DIM, N_ACT)
q_target = QHead(DIM, N_ACT)
q_target.load_state_dict(q_head.state_dict())
q_optim = torch.optim.SGD(list(encoder.parameters()) + list(q_head.parameters()), lr=1e-2)
storage = Storage(decay_value=0.0)

sizes, first = [], None
for episode in range(5):
    enc = run_episode(encoder, q_head, storage, VOCAB)
    first = enc if first is None else first
    storage.optimize(q_head, q_target, q_optim)
    sizes.append(live_graph_size(storage))

# every episode adds a new encoder graph that stays reachable from the buffer
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
# and its saved tensors are still there after five rounds of replay (retained)
saved = first.grad_fn.next_functions[0][0]._saved_result     # TanhBackward0's output
assert saved.shape == (12, DIM)
print("OK")
