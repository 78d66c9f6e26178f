"""
expect: GL001 79, GL002 84
dynamic: confirm
source: https://github.com/MuhammedGolec/EdgeAISIM/blob/970cf5d049b1c42a13f8f300d875b60dabc0a652/GCN_Q_learning.py

Service migration on an edge network: a GNN embeds the graph of network switches
and a DQN agent picks the edge server to migrate to. The author meant the GNN to be
trained by the Q-learning loss ("retrieve our Q network loss, and use it to update
our GNN"), but the GNN output is detached before it reaches the agent, and the
agent's loss is then copied into a fresh leaf with torch.tensor(..., requires_grad=True)
so that backward() runs on the GNN's optimizer. The Q-network learns; the GNN's
weights get no gradient and never change. The asserts show that, and that feeding
the undetached embedding to the agent trains the GNN.
"""
import warnings

import torch
import torch.nn as nn

warnings.filterwarnings("ignore", message="To copy construct")
torch.manual_seed(0)
torch.set_num_threads(1)

N_SWITCH, FEAT, N_SERVERS = 6, 4, 6


class SwitchGNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1 = nn.Linear(FEAT, 16)
        self.hidden = nn.Linear(16, 16)
        self.lin2 = nn.Linear(16, FEAT)

    def forward(self, x, adj):
        h = self.hidden(self.lin1(x)).relu()
        h = adj @ h / adj.sum(1, keepdim=True)
        return self.lin2(h)


class DQNAgent:
    def __init__(self):
        self.q_network = nn.Sequential(nn.Flatten(0), nn.Linear(N_SWITCH * FEAT, 32), nn.ReLU(),
                                       nn.Linear(32, N_SERVERS))
        self.target = nn.Sequential(nn.Flatten(0), nn.Linear(N_SWITCH * FEAT, 32), nn.ReLU(),
                                    nn.Linear(32, N_SERVERS))
        self.target.load_state_dict(self.q_network.state_dict())
        self.optimizer = torch.optim.Adam(self.q_network.parameters(), lr=1e-2)
        self.loss = None

    def choose_action(self, state):
        with torch.no_grad():
            return int(self.q_network(state).argmax())

    def update(self, state, action, next_state, reward, gamma=0.9):
        q = self.q_network(state)[action]
        with torch.no_grad():
            target = reward + gamma * self.target(next_state).max()
        self.loss = (q - target) ** 2
        self.optimizer.zero_grad()
        self.loss.backward()
        self.optimizer.step()


def random_state():
    adj = (torch.rand(N_SWITCH, N_SWITCH) < 0.4).float()
    adj = ((adj + adj.t() + torch.eye(N_SWITCH)) > 0).float()
    return torch.rand(N_SWITCH, FEAT), adj


def train_as_written(steps=10):
    torch.manual_seed(1)
    gnn, agent = SwitchGNN(), DQNAgent()
    gnn_opt = torch.optim.Adam(gnn.parameters(), lr=1e-2)
    criterion = nn.MSELoss()
    start = [p.detach().clone() for p in gnn.parameters()]
    for _ in range(steps):
        (x, adj), (x_next, _) = random_state(), random_state()
        output = gnn(x, adj)
        output = output.detach()
        next_output = gnn(x_next, adj).detach()
        action = agent.choose_action(output)
        agent.update(output, action, next_output, reward=float(torch.rand(())))
        loss = criterion(agent.loss, torch.zeros_like(agent.loss))
        loss = torch.tensor(loss, requires_grad=True)
        gnn_opt.zero_grad()
        loss.backward()
        gnn_opt.step()
    return gnn, start


def train_intended(steps=10):
    torch.manual_seed(1)
    gnn, agent = SwitchGNN(), DQNAgent()
    gnn_opt = torch.optim.Adam(gnn.parameters(), lr=1e-2)
    start = [p.detach().clone() for p in gnn.parameters()]
    for _ in range(steps):
        (x, adj), (x_next, _) = random_state(), random_state()
        embedding = gnn(x, adj)
        next_embedding = gnn(x_next, adj).detach()
        action = agent.choose_action(embedding)
        gnn_opt.zero_grad()
        agent.update(embedding, action, next_embedding, reward=float(torch.rand(())))
        gnn_opt.step()
    return gnn, start


gnn, start = train_as_written()
assert all(p.grad is None or p.grad.abs().sum() == 0 for p in gnn.parameters())
assert all(torch.equal(s, p) for s, p in zip(start, gnn.parameters())), "GNN should not move"

gnn, start = train_intended()
assert any(p.grad is not None and p.grad.abs().sum() > 0 for p in gnn.parameters())
assert any(not torch.equal(s, p) for s, p in zip(start, gnn.parameters()))
print("detached embedding + copied loss leave the GNN untrained; the attached path trains it")
