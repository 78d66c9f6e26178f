"""
expect: GL005 81
dynamic: confirm
source: https://github.com/quantumiracle/Popular-RL-Algorithms/blob/3b814ea159f1fc0b521d6e0e699a7945f770f105/rdpg.py#L85-L122

Recurrent DDPG (LSTM actor and critic) for a two-joint reaching arm.  In
update() the critic's estimate of the actor's new action, predict_new_q, is
computed together with the critic loss; then q_loss.backward(retain_graph=True)
is followed by self.q_optimizer.step(), and only afterwards
policy_loss = -mean(predict_new_q) is back-propagated.  That second backward
runs through the critic's forward pass whose weights Adam has just rewritten
in place, so autograd stops with "one of the variables needed for gradient
computation has been modified by an inplace operation" (the script even turns
on anomaly detection).  The retain_graph=True flags make it look as if sharing
the graph were fine.  The program rebuilds the agent on a tiny random
episode batch: the original update raises that error and leaves the actor
untrained; recomputing the critic value of the new action after the critic
step trains both networks.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

S, A, H = 4, 2, 16


class QNetLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc_in = nn.Linear(S + 2 * A, H)
        self.lstm = nn.LSTM(H, H, batch_first=True)
        self.fc_out = nn.Linear(H, 1)

    def forward(self, state, action, last_action, hidden):
        x = F.relu(self.fc_in(torch.cat([state, action, last_action], dim=-1)))
        x, hidden = self.lstm(x, hidden)
        return self.fc_out(x), hidden


class PolicyLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc_in = nn.Linear(S + A, H)
        self.lstm = nn.LSTM(H, H, batch_first=True)
        self.fc_out = nn.Linear(H, A)

    def forward(self, state, last_action, hidden):
        x = F.relu(self.fc_in(torch.cat([state, last_action], dim=-1)))
        x, hidden = self.lstm(x, hidden)
        return torch.tanh(self.fc_out(x)), hidden


class RDPG:
    def __init__(self):
        self.qnet, self.policy_net = QNetLSTM(), PolicyLSTM()
        self.target_qnet = copy.deepcopy(self.qnet)
        self.target_policy_net = copy.deepcopy(self.policy_net)
        self.q_optimizer = torch.optim.Adam(self.qnet.parameters(), lr=1e-3)
        self.policy_optimizer = torch.optim.Adam(self.policy_net.parameters(), lr=1e-3)

    def update(self, batch, gamma=0.99, recompute_new_q=False):
        hidden_in, hidden_out, state, action, last_action, reward, next_state, done = batch
        predict_q, _ = self.qnet(state, action, last_action, hidden_in)
        new_action, _ = self.policy_net(state, last_action, hidden_in)
        with torch.no_grad():
            new_next_action, _ = self.target_policy_net(next_state, action, hidden_out)
            predict_target_q, _ = self.target_qnet(next_state, new_next_action, action, hidden_out)
        predict_new_q, _ = self.qnet(state, new_action, last_action, hidden_in)
        target_q = reward + (1 - done) * gamma * predict_target_q

        q_loss = F.mse_loss(predict_q, target_q.detach())
        policy_loss = -torch.mean(predict_new_q)

        self.q_optimizer.zero_grad()
        q_loss.backward(retain_graph=True)
        self.q_optimizer.step()

        if recompute_new_q:
            predict_new_q, _ = self.qnet(state, new_action, last_action, hidden_in)
            policy_loss = -torch.mean(predict_new_q)
        self.policy_optimizer.zero_grad()
        policy_loss.backward(retain_graph=True)
        self.policy_optimizer.step()
        return q_loss.item(), policy_loss.item()


def episode_batch(b=3, t=5):
    h0 = (torch.zeros(1, b, H), torch.zeros(1, b, H))
    state, next_state = torch.randn(b, t, S), torch.randn(b, t, S)
    action, last_action = torch.rand(b, t, A) * 2 - 1, torch.rand(b, t, A) * 2 - 1
    reward, done = torch.randn(b, t, 1), torch.zeros(b, t, 1)
    return h0, h0, state, action, last_action, reward, next_state, done


agent = RDPG()
actor_before = [p.detach().clone() for p in agent.policy_net.parameters()]
try:
    agent.update(episode_batch())
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised
assert all(torch.equal(a, p) for a, p in zip(actor_before, agent.policy_net.parameters()))

agent = RDPG()
actor_before = [p.detach().clone() for p in agent.policy_net.parameters()]
critic_before = [p.detach().clone() for p in agent.qnet.parameters()]
for _ in range(3):
    agent.update(episode_batch(), recompute_new_q=True)
assert any(not torch.equal(a, p) for a, p in zip(actor_before, agent.policy_net.parameters()))
assert any(not torch.equal(a, p) for a, p in zip(critic_before, agent.qnet.parameters()))
