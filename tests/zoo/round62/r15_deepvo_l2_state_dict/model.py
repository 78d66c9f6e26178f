"""A miniature DeepVO: a conv encoder over stacked frame pairs, two LSTM cells
whose state runs along the trajectory, and separate rotation / translation
heads."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DeepVO(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.conv1 = nn.Conv2d(6, 8, 3, stride=2, padding=1)
        self.conv2 = nn.Conv2d(8, 8, 3, stride=2, padding=1)
        self.lstm1 = nn.LSTMCell(8 * 4 * 4, hidden)
        self.lstm2 = nn.LSTMCell(hidden, hidden)
        self.fc_rot = nn.Linear(hidden, 3)
        self.fc_trans = nn.Linear(hidden, 3)
        self.hidden = hidden
        self.reset_LSTM_hidden()

    def reset_LSTM_hidden(self):
        z = torch.zeros(1, self.hidden)
        self.h1, self.c1, self.h2, self.c2 = z, z.clone(), z.clone(), z.clone()

    def detach_LSTM_hidden(self):
        self.h1, self.c1 = self.h1.detach(), self.c1.detach()
        self.h2, self.c2 = self.h2.detach(), self.c2.detach()

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = x.flatten(1)
        self.h1, self.c1 = self.lstm1(x, (self.h1, self.c1))
        self.h2, self.c2 = self.lstm2(self.h1, (self.h2, self.c2))
        return self.fc_rot(self.h2), self.fc_trans(self.h2)
