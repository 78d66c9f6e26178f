import torch.nn as nn


class DayAheadMLP(nn.Module):
    def __init__(self, history=48, horizon=24):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(history, 64), nn.GELU(), nn.Linear(64, horizon))

    def forward(self, past_load):
        return self.net(past_load)
