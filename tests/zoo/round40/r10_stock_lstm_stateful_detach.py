"""expect: none
dynamic: dismiss
source: https://github.com/hichenway/stock_predict_with_LSTM/blob/master/model/model_pytorch.py

Stateful ("continue training") LSTM stock forecaster after the linked project: batches are consecutive windows of one
price series, and the LSTM's final (h, c) from one batch is fed as the initial state of the next, so the model keeps
context across batches. Right after the forward pass, and before loss.backward(), the trainer calls h_0.detach_() and
c_0.detach_() on the returned state. An in-place edit of a recorded op's output ahead of backward, plus a state carried
across iterations, looks like trouble on two counts, but it is correct truncated backpropagation through time: the
loss depends on the LSTM's per-step outputs, not on the returned (h, c), so detaching those in place breaks nothing,
and it is exactly what stops the history from piling up. The asserts check that every step backpropagates without
error, that the carried state has no history, that the graph behind each loss has the same size at every step (no
growth), and that the training loss falls.
"""
import torch
from torch.nn import Linear, LSTM, Module

torch.manual_seed(0)
torch.set_num_threads(1)


class Net(Module):
    def __init__(self, input_size=3, hidden_size=16, lstm_layers=2, output_size=1):
        super().__init__()
        self.lstm = LSTM(input_size=input_size, hidden_size=hidden_size, num_layers=lstm_layers, batch_first=True)
        self.linear = Linear(in_features=hidden_size, out_features=output_size)

    def forward(self, x, hidden=None):
        lstm_out, hidden = self.lstm(x, hidden)
        return self.linear(lstm_out), hidden


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(f for f, _ in fn.next_functions)
    return len(seen)


# one long synthetic price series, cut into consecutive windows (batch_size 1, as in continuous training)
t = torch.arange(0, 400, dtype=torch.float32)
series = torch.stack([torch.sin(t / 10), torch.cos(t / 17), torch.sin(t / 5) * 0.3], dim=1)
target = series[1:, :1]
windows = [(series[i : i + 20].unsqueeze(0), target[i : i + 20].unsqueeze(0)) for i in range(0, 380, 20)]

model = Net()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = torch.nn.MSELoss()

sizes, epoch_losses = [], []
for epoch in range(8):
    hidden_train = None
    total = 0.0
    for train_x, train_y in windows:
        optimizer.zero_grad()
        pred_y, hidden_train = model(train_x, hidden_train)
        h_0, c_0 = hidden_train
        h_0.detach_(), c_0.detach_()
        hidden_train = (h_0, c_0)
        loss = criterion(pred_y, train_y)
        sizes.append(graph_size(loss))
        loss.backward()
        optimizer.step()
        total += loss.item()
        assert hidden_train[0].grad_fn is None and not hidden_train[0].requires_grad
    epoch_losses.append(total / len(windows))

assert len(set(sizes)) == 1, sorted(set(sizes))
assert epoch_losses[-1] < 0.3 * epoch_losses[0], epoch_losses
print("graph nodes per step: %d (constant); epoch loss %.4f -> %.4f" % (sizes[0], epoch_losses[0], epoch_losses[-1]))
