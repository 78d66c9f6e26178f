import torch
import torch.nn as nn
import torch.nn.functional as F


class LSTMClassifier(nn.Module):
    """Clip classifier that remembers its LSTM state from one call to the next."""

    def __init__(self, input_len=12, hidden_len=24, n_classes=5):
        super().__init__()
        self.hidden_len = hidden_len
        self.lstm = nn.LSTM(input_len, hidden_len, batch_first=True)
        self.hidden2class = nn.Linear(hidden_len, n_classes)
        self.hidden = self.init_hidden()

    def init_hidden(self):
        return (torch.zeros(1, 1, self.hidden_len), torch.zeros(1, 1, self.hidden_len))

    def forward(self, x):
        lstm_out, self.hidden = self.lstm(x, self.hidden)
        return F.log_softmax(self.hidden2class(lstm_out[:, -1, :]), dim=1)
