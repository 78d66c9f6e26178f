"""
expect: GL004 61
dynamic: confirm
source: https://discuss.pytorch.org/t/backpropagation-through-time-on-lstm-for-reinforcement-learning/31023

A forum user put an LSTM into a deep Q-learning agent and replays whole
stored episodes, doing a backward pass for every step of the episode while
the LSTM state is carried from step to step. Because the state is never
detached, each step's backward(retain_graph=True) walks back through every
earlier step, so the kept graph and the work grow with the episode. The
asserts count how often the first step's hidden state receives a gradient
(once per step of the episode, not once) and compare against a detached-state agent.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

OBS, HID, N_ACT, T = 3, 16, 3, 12


class RecurrentQNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(OBS, HID)
        self.head = nn.Linear(HID, N_ACT)

    def forward(self, obs, state):
        h, c = self.cell(obs, state)
        return self.head(h), (h, c)


class DRQNAgent:
    def __init__(self, truncate=False, gamma=0.9):
        self.net = RecurrentQNet()
        self.opt = torch.optim.Adam(self.net.parameters(), lr=1e-3)
        self.gamma = gamma
        self.truncate = truncate
        self.first_state_hits = 0

    def _count(self, grad):
        self.first_state_hits += 1

    def learn(self, episode):
        state = (torch.zeros(1, HID), torch.zeros(1, HID))
        self.opt.zero_grad()
        for t, (obs, action, reward, next_obs) in enumerate(episode):
            q, state = self.net(obs, state)
            if t == 0:
                state[0].register_hook(self._count)
            with torch.no_grad():
                q_next, _ = self.net(next_obs, state)
                target = reward + self.gamma * q_next.max(1).values
            loss = F.smooth_l1_loss(q.gather(1, action.view(1, 1)).squeeze(1), target)
            if self.truncate:
                loss.backward()
                state = (state[0].detach(), state[1].detach())
            else:
                loss.backward(retain_graph=True)
        self.opt.step()


def make_episode():
    ep = []
    for _ in range(T):
        ep.append((torch.randn(1, OBS), torch.randint(0, N_ACT, (1,)), torch.randn(1), torch.randn(1, OBS)))
    return ep


episode = make_episode()
buggy = DRQNAgent(truncate=False)
buggy.learn(episode)
fixed = DRQNAgent(truncate=True)
fixed.learn(episode)

# every later step's backward reaches back into step 0
assert buggy.first_state_hits == T, buggy.first_state_hits
assert fixed.first_state_hits == 1
print("ok: step-0 state got", buggy.first_state_hits, "gradient visits with the carried graph,",
      fixed.first_state_hits, "with truncation")
