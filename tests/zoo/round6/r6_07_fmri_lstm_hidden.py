"""expect: GL004 71
expect: GL005 75
dynamic: confirm
source: https://github.com/sgadgil6/cnslab_fmri/issues/4

fMRI sex-classification LSTM (sliding windows of ROI time series). The model
keeps its recurrent state on self.hidden and feeds it back in on every call,
so each mini-batch's graph is chained to the previous one. The first plain
backward() then complains about backpropagating through a freed graph; the
reported workaround loss.backward(retain_graph=True) keeps every earlier
graph alive, so the graph (and memory) grows each iteration and every
backward re-differentiates older batches (GL004). Because of that, the next
backward also runs through the previous batch's graph after optimizer.step()
has updated, in place, LSTM weights that graph saved (GL005), which is the
error modern PyTorch raises on the second iteration.
"""
import torch
import torch.nn as nn


def graph_size(fn):
    seen, stack = set(), [fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(nxt for nxt, _ in node.next_functions)
    return len(seen)


class FMRILSTM(nn.Module):
    def __init__(self, hidden_dim, input_dim, batch_size):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.lstm = nn.LSTM(input_dim, hidden_dim, num_layers=1, batch_first=True)
        self.linear = nn.Linear(hidden_dim, 1)
        self.hidden = self.init_hidden(batch_size)

    def init_hidden(self, batch_size):
        return (torch.zeros(1, batch_size, self.hidden_dim),
                torch.zeros(1, batch_size, self.hidden_dim))

    def forward(self, x):
        lstm_out, self.hidden = self.lstm(x, self.hidden)
        return torch.sigmoid(self.linear(lstm_out[:, -1, :]))


def sample_windows(data, labels, batch_size, window):
    idx = torch.randperm(data.shape[0])[:batch_size]
    start = torch.randint(0, data.shape[1] - window + 1, (1,)).item()
    return data[idx, start:start + window], labels[idx]


if __name__ == "__main__":
    torch.manual_seed(0)
    batch_size, window, rois = 8, 10, 22
    data = torch.randn(32, 40, rois)
    labels = torch.randint(0, 2, (32, 1)).float()
    net = FMRILSTM(16, rois, batch_size)
    criterion = nn.BCELoss()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-3)

    sizes, failure = [], None
    for epoch in range(4):
        xb, yb = sample_windows(data, labels, batch_size, window)
        optimizer.zero_grad()
        loss = criterion(net(xb), yb)
        sizes.append(graph_size(loss.grad_fn))
        try:
            loss.backward(retain_graph=True)
        except RuntimeError as err:
            failure = str(err)
            break
        optimizer.step()

    assert len(sizes) >= 2 and sizes[1] > sizes[0], sizes   # iteration 2 graph contains iteration 1
    assert failure is not None and "modified by an inplace operation" in failure
    print("OK: graph grew", sizes, "and backward re-entered the stale first-iteration graph")
