"""
expect: none
dynamic: dismiss
source: https://github.com/DeepRank/deeprank/issues/210

The issue flags `running_loss += loss.data.item()` in DeepRank's NeuralNet.py as
a potential bug and suggests detaching before storing loss values. Here the
number taken out with .data.item() only feeds the epoch log and the LR
scheduler; the backward pass runs on the loss tensor itself. This program
rebuilds that training loop (with a no_grad validation pass and a plateau
scheduler fed by the logged number). The asserts show the weights change, the
logged training loss falls, and the value used for logging matches the loss
that was backpropagated.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ScoringNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(2, 4, 3, padding=1)
        self.fc = nn.Linear(4 * 10, 1)

    def forward(self, x):
        return self.fc(F.relu(self.conv(x)).flatten(1))


def run_epoch(net, opt, batches):
    net.train()
    running_loss = 0.0
    for x, y in batches:
        opt.zero_grad()
        loss = F.mse_loss(net(x), y)
        loss.backward()
        opt.step()
        running_loss += loss.data.item()
    return running_loss / len(batches)


def validate(net, batches):
    net.eval()
    total = 0.0
    with torch.no_grad():
        for x, y in batches:
            total += F.mse_loss(net(x), y).item()
    return total / len(batches)


torch.manual_seed(0)
xs = torch.randn(64, 2, 10)
ys = xs[:, 0].sum(-1, keepdim=True) * 0.3
batches = list(zip(xs.split(16), ys.split(16)))
net = ScoringNet()
opt = torch.optim.SGD(net.parameters(), lr=0.05)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=2)
w0 = net.fc.weight.detach().clone()
history = []
for epoch in range(15):
    history.append(run_epoch(net, opt, batches))
    sched.step(validate(net, batches))
assert not torch.equal(w0, net.fc.weight)
assert history[-1] < 0.5 * history[0], history

x, y = batches[0]
loss = F.mse_loss(net(x), y)
assert abs(loss.data.item() - loss.item()) < 1e-7 and loss.grad_fn is not None
print("train loss", history[0], "->", history[-1])
