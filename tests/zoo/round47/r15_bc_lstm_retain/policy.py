"""Recurrent (LSTM) policy that is pre-trained by behavior cloning before RL fine-tuning."""
import torch
import torch.nn as nn


class RecurrentPolicy(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=16):
        super().__init__()
        self.hidden = hidden
        self.encoder = nn.Linear(obs_dim, hidden)
        self.cell = nn.LSTMCell(hidden, hidden)
        self.action_head = nn.Linear(hidden, act_dim)

    def initial_state(self, batch):
        return torch.zeros(batch, self.hidden), torch.zeros(batch, self.hidden)

    def forward(self, obs_seq, lstm_states):
        h, c = lstm_states
        actions = []
        for obs in obs_seq:
            h, c = self.cell(torch.tanh(self.encoder(obs)), (h, c))
            actions.append(torch.tanh(self.action_head(h)))
        return torch.stack(actions), (h, c)
