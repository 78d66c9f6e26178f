import torch
import torch.nn as nn


class StockLSTM(nn.Module):
    def __init__(self, in_size=4, hid_size=16):
        super().__init__()
        self.lstm = nn.LSTM(in_size, hid_size, num_layers=2, batch_first=True)
        self.head = nn.Sequential(nn.Linear(hid_size, 16), nn.Linear(16, 1))

    def forward(self, x, h_state, c_state):
        out, (h_state, c_state) = self.lstm(x, (h_state, c_state))
        return self.head(out[:, -1, :]).squeeze(-1), (h_state, c_state)


def run_epoch(net, opt, batches, hidden):
    """Stateful training: the state is passed on, but cut from the old graph."""
    h = torch.zeros(2, batches[0][0].shape[0], hidden)
    c = torch.zeros_like(h)
    losses = []
    for x, y in batches:
        opt.zero_grad()
        pred, (h, c) = net(x, h, c)
        h = h.data
        c = c.data
        loss = nn.functional.mse_loss(pred, y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, h
