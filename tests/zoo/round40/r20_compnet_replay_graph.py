"""expect: GL004 105, GL005 106
dynamic: confirm
source: https://github.com/WOW5678/CompNet/issues/2

Medication recommendation as in CompNet: a CNN encodes the patient's diagnosis codes, a GCN encodes the
drugs picked so far, and a recurrent DQN picks the next drug. Each transition (state, hidden state, action,
reward, next state, next hidden state) goes into a replay memory with its autograd history attached, and the
hidden state is carried from step to step undetached, so every stored tensor keeps the whole chain of
earlier steps and the shared CNN/GCN graph alive. replay() calls loss.backward(retain_graph=True) on
batches drawn from that memory and then the Adam step rewrites the encoder weights in place; the next replay
backpropagates into the same stored graph, whose saved weights are now stale, and raises "modified by an
inplace operation" (the error in the issue, reached after retain_graph=True silenced the "backward through
the graph a second time" error). The asserts show the autograd graph behind each stored hidden state grows
step after step, the second replay raises, and a memory of detached transitions replays without error and
lowers the TD loss.
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
torch.set_num_threads(1)

N_CODES, N_DRUGS, EMB, GAMMA = 30, 12, 16, 0.9


class CodeCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(N_CODES, EMB)
        self.conv = nn.Conv1d(EMB, 24, 3, padding=1)
        self.out = nn.Linear(24, EMB)

    def forward(self, codes):
        h = F.relu(self.conv(self.embedding(codes).t().unsqueeze(0)))
        return self.out(h.max(dim=2).values)


class DrugGCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.node_emb = nn.Parameter(torch.randn(N_DRUGS, EMB) * 0.1)
        self.weight = nn.Parameter(torch.randn(EMB, EMB) * 0.1)

    def forward(self, adj):
        h = torch.relu(adj @ self.node_emb @ self.weight)
        return h.mean(0, keepdim=True)


class DQN(nn.Module):
    def __init__(self):
        super().__init__()
        self.W = nn.Parameter(torch.empty(EMB, EMB))
        self.U = nn.Parameter(torch.empty(EMB, EMB))
        nn.init.xavier_uniform_(self.W)
        nn.init.xavier_uniform_(self.U)
        self.fc1 = nn.Linear(EMB, 32)
        self.fc2 = nn.Linear(32, N_DRUGS)

    def forward(self, x_h):
        x_t, h_prev = x_h
        state = torch.sigmoid(self.W @ x_t.t() + self.U @ h_prev.t())
        return state.t(), self.fc2(F.relu(self.fc1(state.t())))


def drug_adjacency(selected):
    adj = torch.eye(N_DRUGS)
    for a in selected:
        for b in selected:
            adj[a, b] = 1.0
    return adj / adj.sum(1, keepdim=True)


class Agent:
    def __init__(self):
        self.cnn = CodeCNN()
        self.gcn = DrugGCN()
        self.model = DQN()
        self.target_model = DQN()
        self.target_model.load_state_dict(self.model.state_dict())
        params = list(self.cnn.parameters()) + list(self.gcn.parameters()) + list(self.model.parameters())
        self.optimizer = torch.optim.Adam(params, lr=0.01)

    def new_state(self, f, g):
        a = F.softmax(f @ g.t(), dim=0)
        return a.t() @ f + g

    def replay(self, memory, batch_size):
        batch = random.sample(memory, batch_size)
        b_x = torch.cat([t[0] for t in batch])
        b_h = torch.cat([t[1] for t in batch])
        b_action = torch.tensor([t[2] for t in batch]).unsqueeze(1)
        b_reward = torch.tensor([t[3] for t in batch], dtype=torch.float)
        b_next_x = torch.cat([t[4] for t in batch])
        b_next_h = torch.cat([t[5] for t in batch])
        _, q_eval = self.model((b_x, b_h))
        q_eval = q_eval.gather(1, b_action)
        _, q_next = self.target_model((b_next_x, b_next_h))
        q_target = (b_reward + GAMMA * q_next.detach().max(1)[0]).unsqueeze(1)
        loss = F.mse_loss(q_eval, q_target)
        self.optimizer.zero_grad()
        loss.backward(retain_graph=True)
        self.optimizer.step()
        return loss.item()


def count_nodes(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


def run_episode(agent, codes, true_drugs, steps, memory, keep_history=True):
    f = agent.cnn(codes)
    selected = []
    x = agent.new_state(f, agent.gcn(drug_adjacency(selected)))
    h = torch.zeros(1, EMB)
    sizes = []
    for _ in range(steps):
        next_h, output = agent.model((x, h))
        with torch.no_grad():
            scores = output.clone()
            scores[0, selected] = -1e9
            action = int(scores.argmax())
        reward = 1.0 if action in true_drugs else -1.0
        selected.append(action)
        next_x = agent.new_state(f, agent.gcn(drug_adjacency(selected)))
        if keep_history:
            memory.append((x, h, action, reward, next_x, next_h))
        else:
            memory.append((x.detach(), h.detach(), action, reward, next_x.detach(), next_h.detach()))
        sizes.append(count_nodes(next_h) if next_h.grad_fn is not None else 0)
        x, h = next_x, next_h
    return sizes


codes = torch.randint(0, N_CODES, (9,))
true_drugs = {1, 4, 7}

agent = Agent()
memory = []
sizes = run_episode(agent, codes, true_drugs, steps=6, memory=memory)
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes

agent.replay(memory, batch_size=4)
try:
    agent.replay(memory, batch_size=4)
    message = None
except RuntimeError as err:
    message = str(err)
assert message is not None and "inplace operation" in message, message

torch.manual_seed(0)
random.seed(0)
agent = Agent()
memory = []
for _ in range(3):
    run_episode(agent, codes, true_drugs, steps=6, memory=memory, keep_history=False)
losses = [agent.replay(memory, batch_size=8) for _ in range(60)]
assert sum(losses[-10:]) < 0.5 * sum(losses[:10]), losses
print("stored graph sizes per step:", sizes)
print("detached replay memory: TD loss %.3f -> %.3f" % (losses[0], losses[-1]))
