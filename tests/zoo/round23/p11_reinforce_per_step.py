"""
expect: GL005 46
dynamic: confirm
source: https://github.com/seungeunrho/minimalRL/issues/26

minimalRL's REINFORCE stored `prob[a]` for every step of an episode and then, in
`train_net`, looped over the episode backwards doing `zero_grad(); loss.backward();
optimizer.step()` per step. Each stored probability comes from a forward pass run before
any update, and its graph saved the policy's weights; the first `optimizer.step()` rewrites
them in place, so the next step's backward is computed against modified weights (the issue
asks for one update per episode, which the author adopted). Current PyTorch catches this
as an inplace-modification error. The asserts show the per-step update raises it, and the
per-episode update trains the policy on a toy bandit-like task.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.set_num_threads(1)
torch.manual_seed(0)
gamma = 0.98


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.data = []
        self.fc1 = nn.Linear(4, 64)
        self.fc2 = nn.Linear(64, 2)
        self.optimizer = torch.optim.Adam(self.parameters(), lr=0.01)

    def forward(self, x):
        return F.softmax(self.fc2(F.relu(self.fc1(x))), dim=0)

    def put_data(self, item):
        self.data.append(item)

    def train_net(self):
        R = 0
        for r, prob in self.data[::-1]:
            R = r + gamma * R
            loss = -torch.log(prob) * R
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        self.data = []


def run_episode(pi, steps=10):
    for _ in range(steps):
        s = torch.randn(4)
        prob = pi(s)
        a = Categorical(prob).sample()
        r = 1.0 if int(a) == int(s[0] > 0) else 0.0   # reward for matching the sign of s[0]
        pi.put_data((r, prob[a]))


pi = Policy()
run_episode(pi)
try:
    pi.train_net()
    raised = False
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised, "second backward sees weights changed by the first optimizer.step()"


def train_per_episode(pi, baseline=0.5):
    R, loss = 0, 0
    for r, prob in pi.data[::-1]:
        R = r + gamma * R
        loss = loss - torch.log(prob) * (R - baseline)
    pi.optimizer.zero_grad()
    loss.backward()
    pi.optimizer.step()
    pi.data = []


def accuracy(pi, n=400):
    with torch.no_grad():
        return sum(int(pi(x).argmax()) == int(x[0] > 0) for x in torch.randn(n, 4)) / n


good = Policy()
before = accuracy(good)
for _ in range(400):
    run_episode(good, steps=1)
    train_per_episode(good)
after = accuracy(good)
assert after > before + 0.15 and after > 0.75, (before, after)
print("p11 ok: optimizer.step() inside the per-step loop breaks the stored graphs", before, after)
