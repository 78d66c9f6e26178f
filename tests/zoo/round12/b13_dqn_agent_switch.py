"""
expect: GL003 57
dynamic: confirm
source: https://github.com/QasimWani/RL-Unity/issues/2

The report shows a DQN agent whose train() step fails at loss.backward() with
"element 0 of tensors does not require grad and does not have a grad_fn" on
loss = F.mse_loss(Q_expected, Q_targets); it does not show the cause. This
program rebuilds one such agent: the Q-value helper used for acting is wrapped in
@torch.no_grad() and reused in train(), and the error is silenced by switching
requires_grad on Q_expected. The asserts show backward then runs but the local
Q-network gets no gradient and is unchanged after 20 updates, while computing
Q_expected with grad enabled trains it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class QNet(nn.Module):
    def __init__(self, s_dim=6, n_act=3):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(s_dim, 32), nn.ReLU(), nn.Linear(32, n_act))

    def forward(self, s):
        return self.body(s)


class Agent:
    def __init__(self, gamma=0.99):
        self.local = QNet()
        self.target = QNet()
        self.target.load_state_dict(self.local.state_dict())
        self.optimizer = torch.optim.Adam(self.local.parameters(), lr=1e-3)
        self.gamma = gamma

    @torch.no_grad()
    def q_values(self, net, states):
        return net(states)

    def get_action(self, state, eps=0.0):
        if torch.rand(()) < eps:
            return int(torch.randint(0, 3, ()))
        return int(self.q_values(self.local, state.unsqueeze(0)).argmax())

    def train(self, experiences, silence=True):
        states, actions, rewards, next_states, dones = experiences
        q_next = self.q_values(self.target, next_states).max(1, keepdim=True)[0]
        q_targets = rewards + self.gamma * q_next * (1 - dones)
        if silence:
            q_expected = self.q_values(self.local, states).gather(1, actions)
        else:
            q_expected = self.local(states).gather(1, actions)
        loss = F.mse_loss(q_expected, q_targets)
        self.optimizer.zero_grad()
        if loss.grad_fn is None:
            q_expected.requires_grad_(True)
            loss = F.mse_loss(q_expected, q_targets)
        loss.backward()
        self.optimizer.step()


def batch(n=16):
    return (torch.randn(n, 6), torch.randint(0, 3, (n, 1)), torch.randn(n, 1),
            torch.randn(n, 6), torch.zeros(n, 1))


torch.manual_seed(0)
agent = Agent()
w0 = agent.local.body[0].weight.detach().clone()
agent.get_action(torch.randn(6))
for _ in range(20):
    agent.train(batch())
assert agent.local.body[0].weight.grad is None
assert torch.equal(w0, agent.local.body[0].weight)

ok = Agent()
v0 = ok.local.body[0].weight.detach().clone()
for _ in range(20):
    ok.train(batch(), silence=False)
assert not torch.equal(v0, ok.local.body[0].weight)
print("local net unchanged after 20 silenced updates")
